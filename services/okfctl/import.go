package main

import (
	"cmp"
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
	"sync"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safetext"
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
// caps an import at a few hundred bundles a second. importWriters batches
// are written at once, one a core of the database's two: the writes are
// Postgres's CPU (text search vectors and their GIN indexes) more than the
// flush. Duplicates written by two writers at once follow the same rule
// (the earliest indexed is live), whichever commits first.
const (
	importBatch   = 500
	importWriters = 2
)

// importTree indexes every bundle under dir/<owner>/<repo>/, importBatch
// bundles a transaction, parsing the next batches while importWriters
// write the last ones.
// Bundles of an imported repository that are no longer in the tree are
// hidden. progress shows the count, rate and ETA.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan importJob, importWriters)
	written := make(chan error, importWriters)
	ws := make([]importSummary, importWriters) // what each writer counts
	failures := &lockedWriter{w: progress}     // the writers' lines about refused bundles
	for i := range ws {
		go func() { written <- writeJobs(ctx, cancel, st, jobs, &ws[i], failures) }()
	}
	m := newMeter(progress, total)
	m.w = failures // the terminal test is done; writes share the writers' lock
	p := &importParser{sum: &sum, job: newImportJob(), jobs: jobs, meter: m}
	for i, r := range repos {
		if err = ctx.Err(); err != nil {
			break
		}
		if err = p.repo(r, roots[i], now); err != nil {
			break
		}
	}
	jobs <- p.job
	close(jobs)
	var werr error
	for range ws {
		werr = cmp.Or(werr, <-written)
	}
	for i := range ws { // every writer is done
		sum.Bundles += ws[i].Bundles
		sum.Created += ws[i].Created
		sum.Updated += ws[i].Updated
		sum.Unchanged += ws[i].Unchanged
		sum.Hidden += ws[i].Hidden
		sum.Failed += ws[i].Failed
	}
	if err = cmp.Or(werr, err); err != nil {
		return sum, err
	}
	p.meter.done()
	if sum.Failed > 0 {
		return sum, fmt.Errorf("%d index.md files failed to import (see above)", sum.Failed)
	}
	return sum, nil
}

// importJob is a batch to write and the repositories completed with it.
type importJob struct {
	batch []store.BundleInput
	at    []rootAt            // where each bundle of batch is in reads
	keep  map[string][]string // owner/repo to the ids found there
	reads []store.RepoRead    // what the import made of each index.md of those repositories
}

func newImportJob() importJob { return importJob{keep: map[string][]string{}} }

// importParser reads the roots of repositories into jobs.
type importParser struct {
	sum   *importSummary // Repos, NotBundles, Failed
	job   importJob
	jobs  chan<- importJob
	meter *meter
}

// repo parses the roots of one repository into the job, sending it when
// it is full.
//
// A repository whose repo.json is not valid JSON, or whose signals are out
// of range (indexer.RepoInfo.Check), fails alone: each of its index.md files
// is counted failed and recorded with the reason invalid_signals, its
// bundles indexed before stay as they were, and the import goes on.
func (p *importParser) repo(r repoDir, roots []string, now time.Time) error {
	var meta repoJSON
	var metaErr error
	if b, err := os.ReadFile(filepath.Join(r.path, "repo.json")); err == nil {
		if err := json.Unmarshal(b, &meta); err != nil {
			metaErr = fmt.Errorf("repo.json: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("import: %w", err)
	}
	info := indexer.RepoInfo{Stars: meta.Stars, Forks: meta.Forks, PushedAt: meta.PushedAt,
		Archived: meta.Archived, Language: meta.Language, License: meta.License,
		Files: diskFiles(r.path)} // the tree is known: "/x" links follow okf.LinkPath
	if metaErr == nil {
		if err := info.Check(); err != nil {
			metaErr = fmt.Errorf("repo.json: %w", err)
		}
	}
	p.sum.Repos++
	keep := []string{}
	// What this read made of each index.md, for the owner status.
	read := store.RepoRead{Repo: source.Repo{Owner: r.owner, Name: r.name}.FullName(), Roots: []store.RootVerdict{}}
	if metaErr != nil {
		p.meter.printf("  %s/%s: %v; its %d index.md files are not imported\n", r.owner, r.name, metaErr, len(roots))
		for _, rel := range roots {
			detail, _ := safetext.Cap(safetext.Line(metaErr.Error()), 300, true)
			read.Roots = append(read.Roots, store.RootVerdict{Path: rel, NotBundle: indexer.NotBundleInvalidSignals, Detail: detail})
		}
		p.sum.Failed += len(roots)
		p.meter.add(len(roots))
		p.job.reads = append(p.job.reads, read) // no keep: nothing is hidden
		return nil
	}
	for _, rel := range roots {
		data, err := os.ReadFile(filepath.Join(r.path, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		loc := source.Repo{Owner: r.owner, Name: r.name, Branch: meta.DefaultBranch, Path: rel}
		parsed, err := indexer.ParseRepo(data, loc, info, now)
		in := parsed.Input
		read.Roots = append(read.Roots, indexer.Verdict(rel, parsed, err, info.Files))
		p.meter.add(1)
		if errors.Is(err, okf.ErrNotBundle) {
			p.sum.NotBundles++
			continue
		}
		if err != nil {
			p.sum.Failed++
			p.meter.printf("  %s/%s %s: %v\n", r.owner, r.name, rel, err)
			continue
		}
		keep = append(keep, in.ID)
		p.job.batch = append(p.job.batch, in)
		p.job.at = append(p.job.at, rootAt{read: len(p.job.reads), root: len(read.Roots) - 1})
	}
	p.job.keep[strings.ToLower(source.Repo{Owner: r.owner, Name: r.name}.FullName())] = keep
	p.job.reads = append(p.job.reads, read)
	// A job ends with a repository, so that a bundle the database refuses
	// is recorded in its repository's read.
	if len(p.job.batch) >= importBatch {
		p.jobs <- p.job
		p.job = newImportJob()
	}
	return nil
}

// rootAt is where a bundle of a job's batch came from:
// reads[read].Roots[root].
type rootAt struct{ read, root int }

// writeJobs writes each job's batch, then hides the bundles that its
// completed repositories no longer hold. After an error it cancels the
// import and drains the jobs.
func writeJobs(ctx context.Context, cancel func(), st *store.Store, jobs <-chan importJob, sum *importSummary, out io.Writer) error {
	var err error
	for job := range jobs {
		if err == nil {
			if err = writeJob(ctx, st, job, sum, out); err != nil {
				cancel()
			}
		}
	}
	return err
}

func writeJob(ctx context.Context, st *store.Store, job importJob, sum *importSummary, out io.Writer) error {
	if len(job.batch) > 0 {
		res, refused, err := st.UpsertIsolated(ctx, job.batch)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		isRefused := map[int]bool{}
		for _, ref := range refused {
			isRefused[ref.Index] = true
			read := &job.reads[job.at[ref.Index].read]
			v := &read.Roots[job.at[ref.Index].root]
			*v = store.RootVerdict{Path: v.Path, NotBundle: indexer.NotBundleWriteRefused, Detail: indexer.RefusalDetail(ref)}
			fmt.Fprintf(out, "  %s %s: not imported: %s (%s)\n", read.Repo, v.Path, v.Detail, ref.Reason)
			sum.Failed++
		}
		for i, r := range res {
			if isRefused[i] {
				continue
			}
			sum.Bundles++
			switch {
			case r.Created:
				sum.Created++
			case r.Changed:
				sum.Updated++
			default:
				sum.Unchanged++
			}
		}
	}
	if len(job.reads) == 0 {
		return nil
	}
	if err := st.RecordRepoReads(ctx, job.reads, time.Now()); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	stale, err := st.StaleRepos(ctx, job.keep)
	if err != nil {
		return err
	}
	for _, repo := range stale {
		hidden, err := st.HideRepoBundlesExcept(ctx, repo, job.keep[repo])
		if err != nil {
			return err
		}
		sum.Hidden += hidden
	}
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

// lockedWriter serialises the writes of concurrent writers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
