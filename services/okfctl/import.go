package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
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

// rootAt is where a bundle of a job's batch came from:
// reads[read].Roots[root].
type rootAt struct{ read, root int }

// writeJobs writes each job's batch, then hides the bundles that its
// completed repositories no longer hold. After an error it cancels the
// import and drains the jobs.
func writeJobs(ctx context.Context, cancel func(), st *store.Store, jobs <-chan importJob, sum *importSummary, out *meter) error {
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

// writeJob writes a job's batch, hides what its repositories no longer
// hold, and prints each repository's line.
func writeJob(ctx context.Context, st *store.Store, job importJob, sum *importSummary, out *meter) error {
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
			out.printf("  %s %s: not imported: %s (%s)\n", read.Repo, v.Path, v.Detail, ref.Reason)
			sum.Failed++
			if l := job.lines[job.at[ref.Index].read]; l != nil {
				l.failed++
			}
		}
		for i, r := range res {
			if isRefused[i] {
				continue
			}
			sum.Bundles++
			l := job.lines[job.at[i].read]
			if l == nil {
				l = &repoLine{}
			}
			switch {
			case r.Created:
				sum.Created++
				l.created++
			case r.Changed:
				sum.Updated++
				l.updated++
			default:
				sum.Unchanged++
				l.unchanged++
			}
		}
	}
	if len(job.reads) == 0 {
		return nil
	}
	lineOf := map[string]*repoLine{}
	for i, read := range job.reads {
		if job.lines[i] != nil {
			lineOf[read.Repo] = job.lines[i]
		}
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
		if l := lineOf[repo]; l != nil {
			l.hidden += hidden
		}
	}
	for _, l := range job.lines {
		if l != nil {
			out.printf("%s\n", l)
		}
	}
	return nil
}

type repoDir struct{ owner, name, path string }

// importLayout is what an import reads in DIR.
type importLayout struct {
	repos    []repoDir
	flat     bool                    // <owner>__<repo> folders, not <owner>/<repo> directories
	manifest map[string]manifestRepo // DIR/MANIFEST.tsv by lowercase owner/repo, nil without one
	skipped  []skippedFolder
}

// skippedFolder is a folder that names no GitHub repository.
type skippedFolder struct{ folder, why string }

// manifestName is the file that gives the repositories' display names and
// signals.
const manifestName = "MANIFEST.tsv"

// listRepos lists the repositories of DIR.
func listRepos(dir string) ([]repoDir, error) {
	lay, err := readLayout(dir)
	return lay.repos, err
}

// readLayout reads which repositories DIR holds. Its folders are either
// <owner>/<repo> directories or <owner>__<repo> folders (a GitHub owner
// has no underscore, so a "__" tells them apart); a DIR that mixes the two,
// or holds neither, is refused whole, in one line saying so. Hidden
// folders are ignored. A folder whose owner or repository is not a name
// GitHub allows is skipped, with the reason. In the flat layout the folder
// is the repository's root, so a repo.json there is the repository's own
// file, not signals.
func readLayout(dir string) (importLayout, error) {
	var lay importLayout
	entries, err := os.ReadDir(dir)
	if err != nil {
		return lay, fmt.Errorf("import: %w", err)
	}
	var flat, nested []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if strings.Contains(e.Name(), "__") {
			flat = append(flat, e.Name())
		} else {
			nested = append(nested, e.Name())
		}
	}
	if len(flat) > 0 && len(nested) > 0 {
		return lay, fmt.Errorf("import: %s mixes <owner>__<repo> folders (%s, ...) with <owner>/ directories (%s, ...); an import reads one layout",
			dir, flat[0], nested[0])
	}
	if lay.manifest, err = loadManifest(filepath.Join(dir, manifestName)); err != nil {
		return lay, err
	}
	lay.flat = len(flat) > 0
	add := func(folder, owner, name, path string) {
		if m, ok := lay.manifest[strings.ToLower(owner+"/"+name)]; ok {
			owner, name = m.owner, m.name // the display case
		}
		if why := repoNameProblem(owner, name); why != "" {
			lay.skipped = append(lay.skipped, skippedFolder{folder, why})
			return
		}
		lay.repos = append(lay.repos, repoDir{owner, name, path})
	}
	for _, f := range flat {
		owner, name, _ := strings.Cut(f, "__")
		add(f, owner, name, filepath.Join(dir, f))
	}
	for _, o := range nested {
		names, err := os.ReadDir(filepath.Join(dir, o))
		if err != nil {
			return lay, fmt.Errorf("import: %w", err)
		}
		for _, n := range names {
			if n.IsDir() {
				add(o+"/"+n.Name(), o, n.Name(), filepath.Join(dir, o, n.Name()))
			}
		}
	}
	if len(lay.repos) == 0 {
		if len(lay.skipped) > 0 {
			return lay, fmt.Errorf("import: %s holds no folder naming a GitHub repository (%s: %s)", dir, lay.skipped[0].folder, lay.skipped[0].why)
		}
		return lay, fmt.Errorf("import: %s holds no <owner>/<repo> directories and no <owner>__<repo> folders", dir)
	}
	return lay, nil
}

// repoNameProblem says why owner/name cannot be a GitHub repository, or ""
// when it can: an owner is 1-39 letters, digits and single inner hyphens,
// a repository 1-100 letters, digits, ".", "-" and "_", not "." or "..".
func repoNameProblem(owner, name string) string {
	ownerOK := len(owner) >= 1 && len(owner) <= 39 && owner[0] != '-' && owner[len(owner)-1] != '-' && !strings.Contains(owner, "--")
	for _, c := range owner {
		ownerOK = ownerOK && (c == '-' || isASCIIAlnum(c))
	}
	if !ownerOK {
		return fmt.Sprintf("%q is not a GitHub owner name", owner)
	}
	nameOK := len(name) >= 1 && len(name) <= 100 && name != "." && name != ".."
	for _, c := range name {
		nameOK = nameOK && (c == '-' || c == '.' || c == '_' || isASCIIAlnum(c))
	}
	if !nameOK {
		return fmt.Sprintf("%q is not a GitHub repository name", name)
	}
	return ""
}

func isASCIIAlnum(c rune) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// manifestRepo is what MANIFEST.tsv says of one repository: the first
// value given for each column among its rows.
type manifestRepo struct {
	owner, name                     string // as displayed
	stars, forks, language, license string
}

// Bounds of a MANIFEST.tsv: its size and a line's.
const (
	maxManifestBytes = 16 << 20
	maxManifestLine  = 1 << 20
)

// loadManifest reads a MANIFEST.tsv: a header naming the columns, then a
// row per root. Only owner/repo is required; stars, forks, language and
// license are read when present, the other columns ignored. A missing file
// is no manifest; one without an owner/repo column, too large, or with a
// row naming no owner/repo is refused.
func loadManifest(path string) (map[string]manifestRepo, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	} else if fi.Size() > maxManifestBytes {
		return nil, fmt.Errorf("import: %s is %d bytes, more than the %d a manifest may have", path, fi.Size(), maxManifestBytes)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxManifestLine)
	col := map[string]int{}
	if sc.Scan() {
		for i, h := range strings.Split(sc.Text(), "\t") {
			col[strings.ToLower(strings.TrimSpace(h))] = i
		}
	}
	repoCol, ok := col["owner/repo"]
	if !ok {
		return nil, fmt.Errorf("import: %s has no owner/repo column in its header (tab-separated); it cannot say which repository a row is", path)
	}
	out := map[string]manifestRepo{}
	for n := 2; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		cells := strings.Split(sc.Text(), "\t")
		cell := func(name string) string {
			if i, ok := col[name]; ok && i < len(cells) {
				return strings.TrimSpace(cells[i])
			}
			return ""
		}
		owner, name, ok := strings.Cut(cell("owner/repo"), "/")
		if repoCol >= len(cells) || !ok || owner == "" || name == "" {
			return nil, fmt.Errorf("import: %s line %d: %q is not owner/repo", path, n, cell("owner/repo"))
		}
		key := strings.ToLower(owner + "/" + name)
		m, seen := out[key]
		if !seen {
			m = manifestRepo{owner: owner, name: name}
		}
		m.stars = cmp.Or(m.stars, cell("stars"))
		m.forks = cmp.Or(m.forks, cell("forks"))
		m.language = cmp.Or(m.language, cell("language"))
		m.license = cmp.Or(m.license, cell("license"))
		out[key] = m
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("import: %s: %w", path, err)
	}
	return out, nil
}

// signals turns a manifest's cells into the repository's signals. A count
// may be empty (unknown: 0) or a whole number, with "," or "_" between
// thousands; anything else fails the repository. A language is GitHub's
// name of the main one: "TypeScript/Go" and "JavaScript (mjs)" are
// TypeScript and JavaScript, "(generated data)" none. A license is kept
// when it is an SPDX-style id ("MIT", "Apache-2.0"); other text is
// NOASSERTION, as GitHub says of a license it cannot name.
func (m manifestRepo) signals() (repoJSON, error) {
	var out repoJSON
	for _, c := range []struct {
		name, cell string
		to         *int
	}{{"stars", m.stars, &out.Stars}, {"forks", m.forks, &out.Forks}} {
		if c.cell == "" {
			continue
		}
		n, err := strconv.ParseInt(strings.NewReplacer(",", "", "_", "").Replace(c.cell), 10, 64)
		if err != nil || n < 0 || n > math.MaxInt32 {
			return out, fmt.Errorf("%s: %s %q is not a whole number of at most %d", manifestName, c.name, c.cell, math.MaxInt32)
		}
		*c.to = int(n)
	}
	lang := m.language
	if i := strings.IndexAny(lang, "/("); i >= 0 {
		lang = lang[:i]
	}
	out.Language = strings.TrimSpace(lang)
	if m.license != "" {
		out.License = "NOASSERTION"
		if spdxLike(m.license) {
			out.License = m.license
		}
	}
	return out, nil
}

// spdxLike reports whether s looks like an SPDX license id: letters,
// digits, ".", "-" and "+", at most 64 of them.
func spdxLike(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(isASCIIAlnum(c) || c == '.' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// summary is the signals worth a repository's line: language, stars,
// license, "archived"; "" when none is known.
func (m repoJSON) summary() string {
	var parts []string
	if m.Language != "" {
		parts = append(parts, safetext.Line(m.Language))
	}
	if m.Stars == 1 {
		parts = append(parts, "1 star")
	} else if m.Stars > 0 {
		parts = append(parts, fmt.Sprintf("%d stars", m.Stars))
	}
	if m.License != "" {
		parts = append(parts, safetext.Line(m.License))
	}
	if m.Archived {
		parts = append(parts, "archived")
	}
	s, _ := safetext.Cap(strings.Join(parts, ", "), 200, true)
	return s
}

// signalsFile names where a repository's signals came from, for messages.
func signalsFile(repoJSON bool, r repoDir) string {
	if repoJSON {
		if _, err := os.Stat(filepath.Join(r.path, "repo.json")); err == nil {
			return "repo.json"
		}
	}
	return manifestName
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
