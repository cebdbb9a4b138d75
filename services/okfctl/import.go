package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
)

func importCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	quiet := fs.Bool("q", false, "print only the summary line")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: okfctl import [-q] DIR\n\nIndexes every index.md declaring okf_version under DIR/<owner>/<repo>/ as a\nrepository bundle; DIR/<owner>/<repo>/repo.json (optional) gives the repository's\nsignals: stars, forks, pushed_at (RFC 3339), archived, language, license, default_branch.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	u, err := config.LoadDatabaseURL(os.Getenv)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{URL: u})
	if err != nil {
		return err
	}
	defer st.Close()
	progress := stderr
	if *quiet {
		progress = io.Discard
	}
	sum, err := importTree(ctx, st, fs.Arg(0), progress, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, sum)
	return nil
}

// repoJSON is the optional DIR/<owner>/<repo>/repo.json.
type repoJSON struct {
	Stars         int        `json:"stars"`
	Forks         int        `json:"forks"`
	PushedAt      *time.Time `json:"pushed_at"`
	Archived      bool       `json:"archived"`
	Language      string     `json:"language"`
	License       string     `json:"license"`
	DefaultBranch string     `json:"default_branch"`
}

// importSummary counts what an import did.
type importSummary struct {
	Repos, Bundles, Created, Updated, Unchanged, Hidden, NotBundles, Failed int
}

func (s importSummary) String() string {
	return fmt.Sprintf("imported %d bundles from %d repositories: %d new, %d updated, %d unchanged, %d hidden; %d index.md files were not bundles; %d failed",
		s.Bundles, s.Repos, s.Created, s.Updated, s.Unchanged, s.Hidden, s.NotBundles, s.Failed)
}

// importBatch is how many bundles import writes a transaction
// (store.UpsertBundles): durable commits cost a flush each, so one a bundle
// caps an import at a few hundred bundles a second.
const importBatch = 500

// importTree indexes every bundle under dir/<owner>/<repo>/, importBatch
// bundles a transaction. Bundles of an imported repository that are no
// longer in the tree are hidden. progress shows the count, rate and ETA.
func importTree(ctx context.Context, st *store.Store, dir string, progress io.Writer, now time.Time) (importSummary, error) {
	var sum importSummary
	repos, err := listRepos(dir)
	if err != nil {
		return sum, err
	}
	roots := make([][]string, len(repos))
	total := 0
	for i, r := range repos {
		if roots[i], err = findRoots(r.path); err != nil {
			return sum, err
		}
		total += len(roots[i])
	}
	w := &importWriter{st: st, sum: &sum, keep: map[string][]string{}, meter: newMeter(progress, total)}
	for i, r := range repos {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		if err := w.repo(ctx, r, roots[i], now); err != nil {
			return sum, err
		}
	}
	if err := w.flush(ctx); err != nil {
		return sum, err
	}
	w.meter.done()
	if sum.Failed > 0 {
		return sum, fmt.Errorf("%d index.md files failed to import (see above)", sum.Failed)
	}
	return sum, nil
}

// importWriter collects parsed bundles into batches and writes them; after
// each batch it hides what the repositories it completed no longer hold.
type importWriter struct {
	st    *store.Store
	sum   *importSummary
	batch []store.BundleInput
	keep  map[string][]string // completed repositories (owner/repo) to the ids found there
	meter *meter
}

// repo parses the roots of one repository into the batch.
func (w *importWriter) repo(ctx context.Context, r repoDir, roots []string, now time.Time) error {
	var meta repoJSON
	if b, err := os.ReadFile(filepath.Join(r.path, "repo.json")); err == nil {
		if err := json.Unmarshal(b, &meta); err != nil {
			return fmt.Errorf("import: %s/repo.json: %w", r.path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("import: %w", err)
	}
	info := indexer.RepoInfo{Stars: meta.Stars, Forks: meta.Forks, PushedAt: meta.PushedAt,
		Archived: meta.Archived, Language: meta.Language, License: meta.License}
	w.sum.Repos++
	keep := []string{}
	for _, rel := range roots {
		data, err := os.ReadFile(filepath.Join(r.path, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		loc := source.Repo{Owner: r.owner, Name: r.name, Branch: meta.DefaultBranch, Path: rel}
		in, err := indexer.FromRepo(data, loc, info, now)
		w.meter.add(1)
		if errors.Is(err, okf.ErrNotBundle) {
			w.sum.NotBundles++
			continue
		}
		if err != nil {
			w.sum.Failed++
			w.meter.printf("  %s/%s %s: %v\n", r.owner, r.name, rel, err)
			continue
		}
		keep = append(keep, in.ID)
		w.batch = append(w.batch, in)
		if len(w.batch) >= importBatch {
			if err := w.flush(ctx); err != nil {
				return err
			}
		}
	}
	w.keep[strings.ToLower(source.Repo{Owner: r.owner, Name: r.name}.FullName())] = keep
	return nil
}

// flush writes the batch, then hides the bundles that the completed
// repositories no longer hold.
func (w *importWriter) flush(ctx context.Context) error {
	if len(w.batch) > 0 {
		res, err := w.st.UpsertBundles(ctx, w.batch)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		for _, r := range res {
			w.sum.Bundles++
			switch {
			case r.Created:
				w.sum.Created++
			case r.Changed:
				w.sum.Updated++
			default:
				w.sum.Unchanged++
			}
		}
		w.batch = w.batch[:0]
	}
	if len(w.keep) == 0 {
		return nil
	}
	stale, err := w.st.StaleRepos(ctx, w.keep)
	if err != nil {
		return err
	}
	for _, repo := range stale {
		hidden, err := w.st.HideRepoBundlesExcept(ctx, repo, w.keep[repo])
		if err != nil {
			return err
		}
		w.sum.Hidden += hidden
	}
	clear(w.keep)
	return nil
}

type repoDir struct{ owner, name, path string }

func listRepos(dir string) ([]repoDir, error) {
	owners, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	var out []repoDir
	for _, o := range owners {
		if !o.IsDir() || strings.HasPrefix(o.Name(), ".") {
			continue
		}
		names, err := os.ReadDir(filepath.Join(dir, o.Name()))
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		for _, n := range names {
			if n.IsDir() {
				out = append(out, repoDir{o.Name(), n.Name(), filepath.Join(dir, o.Name(), n.Name())})
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("import: %s holds no <owner>/<repo> directories", dir)
	}
	return out, nil
}

// findRoots lists the slash paths of every index.md under dir, hidden
// directories included (bundles live in .okf/ and the like), .git excluded.
func findRoots(dir string) ([]string, error) {
	var roots []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "index.md" {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			roots = append(roots, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	sort.Strings(roots)
	return roots, nil
}
