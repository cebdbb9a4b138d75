package store_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// openAt opens a Store on dbURL.
func openAt(t *testing.T, dbURL string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Config{URL: dbURL, Now: newClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// incompressible is n characters no compression shortens.
func incompressible(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range n {
		b.WriteRune(rune(0x4e00 + r.IntN(0x5000))) // CJK: three bytes each
	}
	return b.String()
}

// TestUpsertIsolated: a batch holding bundles the database refuses (a check
// of the table, signals out of range, an index row past Postgres's limit)
// writes the others and names each refused one with its reason.
func TestUpsertIsolated(t *testing.T) {
	ctx := context.Background()
	dbURL := storetest.NewDatabase(t)
	s := openAt(t, dbURL)
	// A B-tree over the description: a description of 1000 incompressible
	// characters is an index row past Postgres's limit (SQLSTATE 54000), as
	// a 3,000-character name was for bundles_live_name before names had a
	// cap.
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE INDEX test_description ON bundles (description)`); err != nil {
		t.Fatal(err)
	}

	good1, good2, good3 := repoBundle("acme", "one", "index.md"), repoBundle("acme", "two", "index.md"), repoBundle("acme", "three", "index.md")
	badOrigin := repoBundle("acme", "origin", "index.md")
	badOrigin.Source.Origin = "nowhere"
	negative := repoBundle("acme", "negative", "index.md")
	negative.Repo.Stars = -3
	huge := repoBundle("acme", "huge", "index.md")
	huge.Repo.Forks = 1 << 62
	long := repoBundle("acme", "long", "index.md")
	long.Description = incompressible(1000)
	ins := []store.BundleInput{good1, badOrigin, good2, negative, huge, long, good3}

	res, refused, err := s.UpsertIsolated(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: store.RefusedConstraint, 3: store.RefusedInvalidSignals, 4: store.RefusedInvalidSignals, 5: store.RefusedTooLarge}
	if len(refused) != len(want) {
		t.Fatalf("refused %d: %v", len(refused), refused)
	}
	for _, r := range refused {
		if want[r.Index] != r.Reason || r.ID != ins[r.Index].ID {
			t.Errorf("refusal %d %s: %s (%v)", r.Index, r.ID, r.Reason, r.Err)
		}
	}
	for _, i := range []int{0, 2, 6} {
		if !res[i].Created || res[i].Visibility != wire.VisibilityLive {
			t.Errorf("bundle %d not written: %+v", i, res[i])
		}
		if _, err := s.GetBundle(ctx, ins[i].ID); err != nil {
			t.Errorf("bundle %d: %v", i, err)
		}
	}
	for i := range want {
		if _, err := s.GetBundle(ctx, ins[i].ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("refused bundle %d stored: %v", i, err)
		}
	}
	// The single writer says the same.
	_, err = s.UpsertBundle(ctx, negative)
	if r := store.AsRefusal(err); r == nil || r.Reason != store.RefusedInvalidSignals {
		t.Errorf("UpsertBundle of negative stars: %v", err)
	}
	if _, err := s.SetRepoSignal(ctx, "acme/one", wire.RepoSignal{Stars: -1}); store.AsRefusal(err) == nil {
		t.Errorf("SetRepoSignal of negative stars: %v", err)
	}
	// The table itself refuses negative counts, whoever writes.
	if _, err := conn.Exec(ctx, `UPDATE bundles SET repo_stars = -1 WHERE id = $1`, good1.ID); store.AsRefusal(err) == nil {
		t.Errorf("negative stars stored: %v", err)
	}
}

// TestCardIsFittedByTheStore: whatever a writer hands over is fitted to the
// card's sizes, says what was cut, and loses invisible characters.
func TestCardIsFittedByTheStore(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	in := repoBundle("acme", "big", "index.md")
	in.Name = strings.Repeat("N", 3000) + "\u202e"
	in.Type = strings.Repeat("t", 3000)
	in.Tagline = "tag\x1b[2J"
	for range 24 {
		in.ConceptList = append(in.ConceptList, wire.Concept{Name: strings.Repeat("c", 80<<10), URL: "https://x/a.md"})
	}
	mustUpsert(t, s, in)
	b, err := s.GetBundle(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len([]rune(b.Name)) != 200 || len(b.Type) != 40 || b.Tagline != "tag[2J" || len(b.ConceptList) == 0 || len(b.ConceptList) > 24 {
		t.Errorf("name %d, type %d, tagline %q, concepts %d", len([]rune(b.Name)), len(b.Type), b.Tagline, len(b.ConceptList))
	}
	if strings.Join(b.Cut, ",") != "name,type,concept_list,concept_name" {
		t.Errorf("cut %q", b.Cut)
	}
	plain := repoBundle("acme", "plain", "index.md")
	mustUpsert(t, s, plain)
	if b, err := s.GetBundle(ctx, plain.ID); err != nil || len(b.Cut) != 0 || b.LookAlikeOf != nil {
		t.Errorf("plain card: cut %q, look-alike %v, %v", b.Cut, b.LookAlikeOf, err)
	}
}

// TestLookAlikes: a name that looks like an earlier live bundle's without
// being it is flagged with that bundle; the same name elsewhere is not.
func TestLookAlikes(t *testing.T) {
	ctx := context.Background()
	s, clk := newStore(t)
	real := repoBundle("okf-index", "field-guide", "index.md")
	real.Name = "Field Guide"
	mustUpsert(t, s, real)
	clk.Advance(1)
	fake := repoBundle("okf-lndex", "field-guide", "index.md")
	fake.Name = "Fіeld Guіde" // Cyrillic і
	fake.Repo.Stars = 100000
	mustUpsert(t, s, fake)
	fork := repoBundle("someone", "field-guide", "index.md")
	fork.Name = "field-guide"
	mustUpsert(t, s, fork)
	for _, tc := range []struct {
		id   string
		want string
	}{{real.ID, ""}, {fake.ID, real.ID}, {fork.ID, ""}} {
		b, err := s.GetBundle(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if b.LookAlikeOf != nil {
			got = *b.LookAlikeOf
		}
		if got != tc.want {
			t.Errorf("%s (%q): look_alike_of %q, want %q", tc.id, b.Name, got, tc.want)
		}
	}
	// On the exact name, the original comes first, whatever the stars the
	// look-alike's repository claims (its repository name is the same key).
	page, err := s.Search(ctx, store.SearchParams{Q: "Field Guide", Sort: wire.SortRelevance, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) < 2 || page[0].ID != real.ID {
		var ids []string
		for _, b := range page {
			ids = append(ids, b.ID)
		}
		t.Errorf("relevance for the exact name = %q, want %s first and the look-alike after", ids, real.ID)
	}
	// Renamed to its own name, the flag goes.
	fake.Name = "Another Guide"
	mustUpsert(t, s, fake)
	if b, _ := s.GetBundle(ctx, fake.ID); b.LookAlikeOf != nil {
		t.Errorf("still flagged: %v", *b.LookAlikeOf)
	}
}

// TestRecordRepoReadsLeavesOutLongPaths: a root at a path past a B-tree
// row is left out of the owner status instead of failing the read.
func TestRecordRepoReadsLeavesOutLongPaths(t *testing.T) {
	ctx := context.Background()
	s, clk := newStore(t)
	long := incompressible(1000) + "/index.md" // past a B-tree row, even compressed
	err := s.RecordRepoReads(ctx, []store.RepoRead{{Repo: "acme/deep", Commit: "c1", Roots: []store.RootVerdict{
		{Path: long, NotBundle: "path_too_long", Detail: "too long"},
		{Path: "index.md", NotBundle: "no_frontmatter", Detail: "no frontmatter"},
	}}}, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.RepoStatus(ctx, "acme/deep", "", 100)
	if err != nil || len(st.Roots) != 1 || st.Roots[0].Path != "index.md" {
		t.Errorf("status: %v %+v", err, st.Roots)
	}
}
