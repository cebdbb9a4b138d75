package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/safetext"
)

// The layout of an import tree: its repositories, its manifest and their signals.

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
