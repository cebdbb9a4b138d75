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

// importTree indexes every bundle under dir/<owner>/<repo>/. Bundles of an
// imported repository that are no longer in the tree are hidden.
func importTree(ctx context.Context, st *store.Store, dir string, progress io.Writer, now time.Time) (importSummary, error) {
	var sum importSummary
	repos, err := listRepos(dir)
	if err != nil {
		return sum, err
	}
	for _, r := range repos {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		rs, err := importRepo(ctx, st, r, progress, now)
		sum.Repos++
		sum.Bundles += rs.Bundles
		sum.Created += rs.Created
		sum.Updated += rs.Updated
		sum.Unchanged += rs.Unchanged
		sum.Hidden += rs.Hidden
		sum.NotBundles += rs.NotBundles
		sum.Failed += rs.Failed
		if err != nil {
			return sum, err
		}
	}
	if sum.Failed > 0 {
		return sum, fmt.Errorf("%d index.md files failed to import (see above)", sum.Failed)
	}
	return sum, nil
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

func importRepo(ctx context.Context, st *store.Store, r repoDir, progress io.Writer, now time.Time) (importSummary, error) {
	var sum importSummary
	var meta repoJSON
	if b, err := os.ReadFile(filepath.Join(r.path, "repo.json")); err == nil {
		if err := json.Unmarshal(b, &meta); err != nil {
			return sum, fmt.Errorf("import: %s/repo.json: %w", r.path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return sum, fmt.Errorf("import: %w", err)
	}
	info := indexer.RepoInfo{Stars: meta.Stars, Forks: meta.Forks, PushedAt: meta.PushedAt,
		Archived: meta.Archived, Language: meta.Language, License: meta.License}

	roots, err := findRoots(r.path)
	if err != nil {
		return sum, err
	}
	var keep []string
	for _, rel := range roots {
		data, err := os.ReadFile(filepath.Join(r.path, filepath.FromSlash(rel)))
		if err != nil {
			return sum, fmt.Errorf("import: %w", err)
		}
		loc := source.Repo{Owner: r.owner, Name: r.name, Branch: meta.DefaultBranch, Path: rel}
		in, err := indexer.FromRepo(data, loc, info, now)
		if errors.Is(err, okf.ErrNotBundle) {
			sum.NotBundles++
			continue
		}
		if err != nil {
			sum.Failed++
			fmt.Fprintf(progress, "  %s/%s %s: %v\n", r.owner, r.name, rel, err)
			continue
		}
		res, err := st.UpsertBundle(ctx, in)
		if err != nil {
			return sum, fmt.Errorf("import: %s/%s %s: %w", r.owner, r.name, rel, err)
		}
		keep = append(keep, in.ID)
		sum.Bundles++
		switch {
		case res.Created:
			sum.Created++
		case res.Changed:
			sum.Updated++
		default:
			sum.Unchanged++
		}
	}
	hidden, err := st.HideRepoBundlesExcept(ctx, source.Repo{Owner: r.owner, Name: r.name}.FullName(), keep)
	if err != nil {
		return sum, err
	}
	sum.Hidden = hidden
	fmt.Fprintf(progress, "%s/%s: %d bundles (%d new, %d updated, %d unchanged, %d hidden)\n",
		r.owner, r.name, sum.Bundles, sum.Created, sum.Updated, sum.Unchanged, sum.Hidden)
	return sum, nil
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
