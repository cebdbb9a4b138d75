package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/wire"
)

// A heavy bundle (its search vector alone over the 2 kB TOAST threshold)
// sends only its description and concept list to TOAST; the short columns
// stay in the row (0017_bundle_storage), else every write pays a TOAST row
// for each of them and every read of an id or a hash a TOAST probe.
func TestHeavyBundleKeepsShortColumnsInRow(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	in := repoBundle("acme", "heavy", "docs/index.md")
	words := distinctWords(200)
	in.Description = strings.Join(words, " ")[:1000]
	in.ConceptList = nil
	for i := range 24 {
		in.ConceptList = append(in.ConceptList, wire.Concept{Name: fmt.Sprintf("Concept %d", i),
			URL: fmt.Sprintf("https://example.org/c/%d.md", i), Summary: strings.Join(words[i*5:i*5+5], " ")})
	}
	in.Concepts = len(in.ConceptList)
	mustUpsert(t, s, in)

	var toast string
	var vector int
	if err := s.Pool().QueryRow(ctx, `SELECT c.reltoastrelid::regclass::text, pg_column_size(b.search)
		FROM pg_class AS c, bundles AS b WHERE c.oid = 'bundles'::regclass AND b.id = $1`, in.ID).Scan(&toast, &vector); err != nil {
		t.Fatal(err)
	}
	if vector < 2000 {
		t.Fatalf("search vector of %d bytes: the bundle is not heavy enough to test this", vector)
	}
	var values int
	if err := s.Pool().QueryRow(ctx, `SELECT count(DISTINCT chunk_id) FROM `+toast).Scan(&values); err != nil {
		t.Fatal(err)
	}
	if values < 1 || values > 2 {
		t.Errorf("%d values in TOAST, want the description and the concept list at most (and at least one)", values)
	}
	got, err := s.GetBundle(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Description != in.Description || len(got.ConceptList) != 24 || got.Name != in.Name {
		t.Errorf("read back %.20q, %d concepts, name %q", got.Description, len(got.ConceptList), got.Name)
	}
}

// A bundle's search vector of a few kilobytes stays in the row whole
// (0032_search_inline): every search testing rows reads one a row, and
// compressing it saved a tenth of it. The row is over Postgres's default
// TOAST threshold (2 kB), under which the vector was compressed.
func TestSearchVectorStaysWhole(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	in := repoBundle("acme", "typical", "docs/index.md")
	in.Description = strings.Join(distinctWords(40), " ")
	mustUpsert(t, s, in)

	var vector, whole, row int
	var compressed *string
	if err := s.Pool().QueryRow(ctx, `SELECT pg_column_size(search), pg_column_size(search || ''::tsvector),
		pg_column_compression(search), pg_column_size(b.*) FROM bundles AS b WHERE id = $1`, in.ID).Scan(&vector, &whole, &compressed, &row); err != nil {
		t.Fatal(err)
	}
	if whole < 1500 || row < 2100 {
		t.Fatalf("search vector of %d bytes in a row of %d: not the size this tests", whole, row)
	}
	if compressed != nil || vector != whole {
		t.Errorf("search vector stored in %d bytes (compressed: %v) of %d, want it whole", vector, compressed != nil, whole)
	}
}

// distinctWords are n words no two alike, none a word of English, so that
// each is a lexeme of its own in a search vector.
func distinctWords(n int) []string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%dq%d", i, i*7919%1000)
	}
	return words
}
