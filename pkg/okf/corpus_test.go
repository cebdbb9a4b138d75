package okf

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// corpusRel is where the shared corpus of real roots lives, relative to this
// package's directory (the working directory of its tests).
const corpusRel = "../../../shared/corpus/real"

// gh prefixes the raw URLs of corpus roots.
const gh = "https://raw.githubusercontent.com/"

// corpusDir returns the corpus directory and fails the test when it is
// missing: the corpus is part of the test suite, not an optional extra.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(corpusRel)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		tb.Fatalf("corpus missing at %s (expected beside the repository as ../shared): %v", dir, err)
	}
	return dir
}

// manifestRow is one row of corpus/real/MANIFEST.tsv.
type manifestRow struct {
	repo, dir, path, kind, notes string
}

// key is the row's file inside the corpus: "<owner>__<repo>/<index_path>".
func (r manifestRow) key() string { return strings.Replace(r.repo, "/", "__", 1) + "/" + r.path }

// isBundle reports whether the row's root must parse as a bundle.
func (r manifestRow) isBundle() bool {
	return strings.HasPrefix(r.kind, "bundle") || r.kind == "fixture" || r.kind == "unattributed"
}

// readManifest reads the corpus manifest.
func readManifest(tb testing.TB) []manifestRow {
	tb.Helper()
	f, err := os.Open(filepath.Join(corpusDir(tb), "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	records, err := r.ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	var rows []manifestRow
	for _, rec := range records[1:] {
		if len(rec) < 12 {
			tb.Fatalf("manifest row with %d fields: %q", len(rec), rec)
		}
		rows = append(rows, manifestRow{repo: rec[0], dir: rec[1], path: rec[2], kind: rec[9], notes: rec[11]})
	}
	return rows
}

// corpusRoot is the Root of a corpus file: a raw GitHub URL, owner/repo as
// the label and the bundle directory.
func corpusRoot(repo, dir, file string) Root {
	return Root{URL: gh + repo + "/HEAD/" + file, Label: repo, Dir: dir}
}

// readCorpus reads one corpus file by key.
func readCorpus(tb testing.TB, key string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir(tb), filepath.FromSlash(key)))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// parseCorpus parses the manifest row whose key is given.
func parseCorpus(tb testing.TB, key string) (Card, error) {
	tb.Helper()
	for _, row := range readManifest(tb) {
		if row.key() == key {
			return Parse(readCorpus(tb, key), corpusRoot(row.repo, row.dir, row.path))
		}
	}
	tb.Fatalf("no manifest row for %s", key)
	return Card{}, nil
}

// mustParseCorpus parses a corpus bundle root and fails on error.
func mustParseCorpus(tb testing.TB, key string) Card {
	tb.Helper()
	card, err := parseCorpus(tb, key)
	if err != nil {
		tb.Fatalf("Parse(%s): %v", key, err)
	}
	return card
}

// goldenCard is what a corpus bundle root must parse to.
type goldenCard struct {
	name     string
	fellBack bool
	tagline  string
	version  string
	typ      string
	concepts int
	first    []Concept
}

// TestCorpusEveryFile parses every file of the corpus. Manifest roots of
// kind bundle*, fixture and unattributed are bundles and must match their
// golden card; negative and spec-example roots, the two SPEC.md texts (no
// frontmatter) and every other saved file (concept files, logs, sub-indexes:
// none declares okf_version) are not bundles.
func TestCorpusEveryFile(t *testing.T) {
	dir := corpusDir(t)
	rows := map[string]manifestRow{}
	for _, row := range readManifest(t) {
		rows[row.key()] = row
	}
	golden := allGoldenCards()
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "MANIFEST.tsv" {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		files++
		t.Run(key, func(t *testing.T) {
			data := readCorpus(t, key)
			row, inManifest := rows[key]
			if !inManifest {
				owner, file, _ := strings.Cut(key, "/")
				repo := strings.Replace(owner, "__", "/", 1)
				row = manifestRow{repo: repo, dir: path.Dir(file), path: file, kind: "saved-file"}
			}
			card, err := Parse(data, corpusRoot(row.repo, row.dir, row.path))
			if !row.isBundle() {
				if !errors.Is(err, ErrNotBundle) {
					t.Fatalf("kind %s: got err %v, card %+v; want ErrNotBundle", row.kind, err, card)
				}
				return
			}
			if err != nil {
				t.Fatalf("kind %s: %v", row.kind, err)
			}
			checkInvariants(t, card)
			if card.Truncated {
				t.Errorf("Truncated = true for a %d-byte root", len(data))
			}
			want, ok := golden[key]
			if !ok {
				t.Fatalf("no golden card for bundle root %s", key)
			}
			checkGolden(t, card, want)
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < len(rows) {
		t.Errorf("walked %d files, manifest lists %d roots", files, len(rows))
	}
}

// TestCorpusManifestMatchesGolden checks that every manifest row names a
// file of the corpus and that the golden tables cover exactly the bundle
// rows.
func TestCorpusManifestMatchesGolden(t *testing.T) {
	golden := allGoldenCards()
	bundles := 0
	for _, row := range readManifest(t) {
		if _, err := os.Stat(filepath.Join(corpusDir(t), filepath.FromSlash(row.key()))); err != nil {
			t.Errorf("manifest row %s: %v", row.key(), err)
		}
		if _, ok := golden[row.key()]; ok != row.isBundle() {
			t.Errorf("%s (kind %s): golden card present = %v", row.key(), row.kind, ok)
		}
		if row.isBundle() {
			bundles++
		}
	}
	if bundles != len(golden) {
		t.Errorf("%d bundle rows, %d golden cards", bundles, len(golden))
	}
}

// allGoldenCards merges the golden tables.
func allGoldenCards() map[string]goldenCard {
	all := map[string]goldenCard{}
	for _, m := range []map[string]goldenCard{goldenCardsA, goldenCardsB} {
		for k, v := range m {
			all[k] = v
		}
	}
	return all
}

// checkGolden compares a card with its golden values.
func checkGolden(t *testing.T, card Card, want goldenCard) {
	t.Helper()
	if card.Name != want.name || card.NameFellBack != want.fellBack {
		t.Errorf("name = %q (fell back %v), want %q (%v)", card.Name, card.NameFellBack, want.name, want.fellBack)
	}
	if card.Tagline != want.tagline {
		t.Errorf("tagline = %q, want %q", card.Tagline, want.tagline)
	}
	if card.OKFVersion != want.version {
		t.Errorf("okf_version = %q, want %q", card.OKFVersion, want.version)
	}
	if card.Type != want.typ {
		t.Errorf("type = %q, want %q", card.Type, want.typ)
	}
	if card.Concepts != want.concepts {
		t.Errorf("concepts = %d, want %d", card.Concepts, want.concepts)
	}
	if len(card.ConceptList) != min(want.concepts, MaxConceptList) {
		t.Errorf("len(concept_list) = %d, want %d", len(card.ConceptList), min(want.concepts, MaxConceptList))
	}
	for i, w := range want.first {
		if i >= len(card.ConceptList) {
			t.Errorf("concept %d missing, want %+v", i, w)
			continue
		}
		if got := card.ConceptList[i]; got != w {
			t.Errorf("concept %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

// checkInvariants asserts what holds for every card: valid UTF-8 without
// NULs everywhere, the contract's caps, absolute concept URLs listed once.
func checkInvariants(t testing.TB, card Card) {
	t.Helper()
	texts := []string{card.Name, card.Tagline, card.Description, card.OKFVersion, card.Type}
	for _, c := range card.ConceptList {
		texts = append(texts, c.Name, c.URL, c.Summary)
	}
	texts = append(texts, card.Links...)
	for _, s := range texts {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			t.Errorf("invalid UTF-8 or NUL in %q", s)
		}
	}
	if n := utf8.RuneCountInString(card.Description); n > MaxDescriptionRunes {
		t.Errorf("description has %d runes", n)
	}
	if len(card.ConceptList) > MaxConceptList || card.Concepts < len(card.ConceptList) {
		t.Errorf("concepts %d, list %d", card.Concepts, len(card.ConceptList))
	}
	if card.ConceptList == nil {
		t.Errorf("concept list is nil, want an empty list")
	}
	seen := map[string]bool{}
	for _, c := range card.ConceptList {
		key := withoutFragment(c.URL)
		if seen[key] {
			t.Errorf("concept URL %s listed twice", key)
		}
		seen[key] = true
		if c.Name == "" {
			t.Errorf("concept with empty name: %+v", c)
		}
	}
}
