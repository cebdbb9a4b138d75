package githubtest

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// UnattributedOwner replaces the corpus owner "_unattributed" (not a valid
// GitHub login: logins cannot start with '_').
const UnattributedOwner = "unattributed"

// RealCorpusDir finds shared/corpus/real by walking up from this source
// file; "" when not found.
func RealCorpusDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	for dir := filepath.Dir(file); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		c := filepath.Join(dir, "shared", "corpus", "real")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
	}
	return ""
}

// NewFromCorpus starts a Server (like New with zero Options) holding every
// repository of a corpus directory; it fails t on a load error.
func NewFromCorpus(t testing.TB, dir string) *Server {
	s := New(t, Options{})
	if err := s.LoadCorpus(dir); err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatalf("githubtest: %v", err)
	}
	return s
}

// LoadCorpus adds every <owner>__<repo> directory of dir as a repository:
// all files under it (hidden ones included) become the repository's files.
// MANIFEST.tsv (columns owner/repo, stars, forks, language, license) fills
// signals where present. Gaps are filled deterministically from a hash of
// the name: stars 0-299, forks 0-39. Language keeps the first name of
// "TypeScript/Go" or "JavaScript (mjs)" and drops "(...)" values; a license
// that is not an SPDX-looking id becomes NOASSERTION (GitHub's "Other").
// Descriptions and topics are left empty (the corpus does not record them).
// Owner "_unattributed" becomes UnattributedOwner.
func (s *Server) LoadCorpus(dir string) error {
	manifest, err := readManifest(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read corpus %s: %w", dir, err)
	}
	for _, e := range ents {
		owner, name, ok := strings.Cut(e.Name(), "__")
		if !e.IsDir() || !ok || owner == "" || name == "" {
			continue
		}
		m := manifest[strings.ToLower(owner+"/"+name)]
		if owner == "_unattributed" {
			owner = UnattributedOwner
		}
		files, err := readTree(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		h := hashOf(owner + "/" + name)
		r := Repo{Owner: owner, Name: name, Files: files,
			Stars: int(h % 300), Forks: int((h >> 16) % 40),
			Language: m.language, License: m.license}
		if m.stars != nil {
			r.Stars = *m.stars
		}
		if m.forks != nil {
			r.Forks = *m.forks
		}
		s.AddRepo(r)
	}
	return nil
}

func readTree(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read corpus repo %s: %w", root, err)
	}
	return files, nil
}

type manifestRow struct {
	stars, forks      *int
	language, license string
}

var spdxLike = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+-]*$`)

func readManifest(p string) (map[string]manifestRow, error) {
	out := map[string]manifestRow{}
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	col := map[string]int{}
	for first := true; sc.Scan(); first = false {
		cells := strings.Split(sc.Text(), "\t")
		if first {
			for i, c := range cells {
				col[c] = i
			}
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(cells) {
				return strings.TrimSpace(cells[i])
			}
			return ""
		}
		key := strings.ToLower(get("owner/repo"))
		row := out[key]
		if n, err := strconv.Atoi(get("stars")); err == nil && row.stars == nil {
			row.stars = &n
		}
		if n, err := strconv.Atoi(get("forks")); err == nil && row.forks == nil {
			row.forks = &n
		}
		if lang := cleanLanguage(get("language")); lang != "" && row.language == "" {
			row.language = lang
		}
		if lic := get("license"); lic != "" && row.license == "" {
			row.license = "NOASSERTION"
			if spdxLike.MatchString(lic) {
				row.license = lic
			}
		}
		out[key] = row
	}
	return out, sc.Err()
}

func cleanLanguage(s string) string {
	if strings.HasPrefix(s, "(") {
		return ""
	}
	s, _, _ = strings.Cut(s, "/")
	s, _, _ = strings.Cut(s, " (")
	return strings.TrimSpace(s)
}
