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
	"strings"
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
		fmt.Fprintln(fs.Output(), "usage: okfctl import [-q] DIR\n\n"+
			"Indexes every index.md declaring okf_version under DIR's repositories as a\n"+
			"repository bundle. DIR holds either <owner>/<repo>/ directories, each with an\n"+
			"optional repo.json giving the repository's signals (stars, forks, pushed_at in\n"+
			"RFC 3339, archived, language, license, default_branch), or <owner>__<repo>/\n"+
			"folders; either may have a MANIFEST.tsv (tab-separated, a header naming its\n"+
			"columns: owner/repo, and any of stars, forks, language, license) giving each\n"+
			"repository's display name and signals. Prints a line per repository and a\n"+
			"summary; -q only the summary.")
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

	// Skipped counts the folders that name no GitHub repository.
	Skipped int
}

func (s importSummary) String() string {
	line := fmt.Sprintf("imported %d bundles from %d repositories: %d new, %d updated, %d unchanged, %d hidden; %d index.md files were not bundles; %d failed",
		s.Bundles, s.Repos, s.Created, s.Updated, s.Unchanged, s.Hidden, s.NotBundles, s.Failed)
	if s.Skipped > 0 {
		line += fmt.Sprintf("; %d folders skipped", s.Skipped)
	}
	return line
}

// repoLine is what an import did in one repository: its line of output.
type repoLine struct {
	name    string // owner/repo as displayed
	signals string // what the import knows of the repository, "" for nothing

	created, updated, unchanged, hidden, notBundles, failed int
}

func (l repoLine) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{l.created, "new"}, {l.updated, "updated"}, {l.unchanged, "unchanged"}, {l.hidden, "hidden"},
		{l.notBundles, "not bundles"}, {l.failed, "failed"}} {
		switch {
		case c.n == 1 && c.what == "not bundles":
			parts = append(parts, "1 not a bundle")
		case c.n > 0:
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		parts = []string{"no index.md"}
	}
	out := l.name + ": " + strings.Join(parts, ", ")
	if l.signals != "" {
		out += " (" + l.signals + ")"
	}
	return out
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
	lay, err := readLayout(dir)
	if err != nil {
		return sum, err
	}
	repos := lay.repos
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
	m := newMeter(progress, total)             // shared by the parser and the writers
	for i := range ws {
		go func() { written <- writeJobs(ctx, cancel, st, jobs, &ws[i], m) }()
	}
	for _, sk := range lay.skipped {
		m.printf("%s: skipped: %s\n", sk.folder, sk.why)
		sum.Skipped++
	}
	p := &importParser{sum: &sum, job: newImportJob(), jobs: jobs, meter: m, manifest: lay.manifest, repoJSON: !lay.flat}
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
	lines []*repoLine         // each repository's line, beside reads; nil when it printed its own
}

func newImportJob() importJob { return importJob{keep: map[string][]string{}} }

// importParser reads the roots of repositories into jobs.
type importParser struct {
	sum      *importSummary // Repos, NotBundles, Failed
	job      importJob
	jobs     chan<- importJob
	meter    *meter
	manifest map[string]manifestRepo // by lowercase owner/repo; nil without MANIFEST.tsv
	repoJSON bool                    // whether <owner>/<repo>/repo.json gives signals
}

// repo parses the roots of one repository into the job, sending it when
// it is full.
//
// The repository's signals are its MANIFEST.tsv row's, then, in the
// <owner>/<repo> layout, its repo.json's. A repository whose repo.json is
// not valid JSON, whose manifest row has a count that is not a whole
// number, or whose signals are out of range (indexer.RepoInfo.Check), fails
// alone: each of its index.md files is counted failed and recorded with the
// reason invalid_signals, its bundles indexed before stay as they were, and
// the import goes on.
func (p *importParser) repo(r repoDir, roots []string, now time.Time) error {
	var meta repoJSON
	var metaErr error
	if m, ok := p.manifest[strings.ToLower(r.owner+"/"+r.name)]; ok {
		meta, metaErr = m.signals()
	}
	if p.repoJSON { // a repo.json replaces the manifest's row
		b, err := os.ReadFile(filepath.Join(r.path, "repo.json"))
		switch {
		case err == nil:
			meta, metaErr = repoJSON{}, nil
			if err := json.Unmarshal(b, &meta); err != nil {
				metaErr = fmt.Errorf("repo.json: %w", err)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("import: %w", err)
		}
	}
	info := indexer.RepoInfo{Stars: meta.Stars, Forks: meta.Forks, PushedAt: meta.PushedAt,
		Archived: meta.Archived, Language: meta.Language, License: meta.License,
		Files: diskFiles(r.path)} // the tree is known: "/x" links follow okf.LinkPath
	if metaErr == nil {
		if err := info.Check(); err != nil {
			metaErr = fmt.Errorf("%s: %w", signalsFile(p.repoJSON, r), err)
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
		p.job.lines = append(p.job.lines, nil)  // its line is printed
		return nil
	}
	line := &repoLine{name: r.owner + "/" + r.name, signals: meta.summary()}
	for _, rel := range roots {
		data, err := os.ReadFile(filepath.Join(r.path, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		loc := source.Repo{Owner: r.owner, Name: r.name, Branch: meta.DefaultBranch, Path: rel}
		parsed, err := indexer.ParseRepo(data, loc, info, now)
		in := parsed.Input
		in.Imported = true
		read.Roots = append(read.Roots, indexer.Verdict(rel, parsed, err, info.Files))
		p.meter.add(1)
		if errors.Is(err, okf.ErrNotBundle) {
			p.sum.NotBundles++
			line.notBundles++
			continue
		}
		if err != nil {
			p.sum.Failed++
			line.failed++
			p.meter.printf("  %s/%s %s: %v\n", r.owner, r.name, rel, err)
			continue
		}
		keep = append(keep, in.ID)
		p.job.batch = append(p.job.batch, in)
		p.job.at = append(p.job.at, rootAt{read: len(p.job.reads), root: len(read.Roots) - 1})
	}
	p.job.keep[strings.ToLower(source.Repo{Owner: r.owner, Name: r.name}.FullName())] = keep
	p.job.reads = append(p.job.reads, read)
	p.job.lines = append(p.job.lines, line)
	// A job ends with a repository, so that a bundle the database refuses
	// is recorded in its repository's read.
	if len(p.job.batch) >= importBatch {
		p.jobs <- p.job
		p.job = newImportJob()
	}
	return nil
}
