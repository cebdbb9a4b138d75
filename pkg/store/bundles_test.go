package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestUpsertBundleLifecycle(t *testing.T) {
	s, clk := newStore(t)
	base := repoBundle("Acme", "Widgets", "docs/okf/index.md")
	base.Repo.PushedAt = &wire.Timestamp{Time: time.Date(2026, 1, 2, 3, 4, 5, 6789, time.UTC)} // sub-microsecond
	created := clk.Now()

	steps := []struct {
		name        string
		edit        func(in *store.BundleInput)
		wantCreated bool
		wantChanged bool
		wantUpdated time.Time // expected updated_at after the step
		wantStars   int
		wantWrite   bool // the row is rewritten
	}{
		{"create", func(*store.BundleInput) {}, true, true, created, 10, true},
		{"same content again", func(*store.BundleInput) {}, false, false, created, 10, false},
		{"repo signal only", func(in *store.BundleInput) { in.Repo.Stars = 99 }, false, false, created, 99, true},
		{"tagline changed", func(in *store.BundleInput) { in.Repo.Stars = 99; in.Card.Tagline = "new" }, false, true, created.Add(3 * time.Hour), 99, true},
		{"concept changed", func(in *store.BundleInput) {
			in.Repo.Stars = 99
			in.Card.Tagline = "new"
			in.Card.ConceptList = in.Card.ConceptList[:1]
		}, false, true, created.Add(4 * time.Hour), 99, true},
		{"root bytes changed only", func(in *store.BundleInput) {
			in.Repo.Stars = 99
			in.Card.Tagline = "new"
			in.Card.ConceptList = in.Card.ConceptList[:1]
			in.RootSHA256 = sha256Hex("other bytes")
		}, false, true, created.Add(5 * time.Hour), 99, true},
	}
	for i, st := range steps {
		if i > 0 {
			clk.Advance(time.Hour)
		}
		in := base
		sig := *base.Repo
		in.Repo = &sig
		in.Card.ConceptList = append(wire.ConceptList(nil), base.Card.ConceptList...)
		st.edit(&in)
		before := rowVersion(t, s, in.ID)
		res := mustUpsert(t, s, in)
		if wrote := rowVersion(t, s, in.ID) != before; wrote != st.wantWrite {
			t.Errorf("%s: row written = %v", st.name, wrote)
		}
		if res.Created != st.wantCreated || res.Changed != st.wantChanged || res.ID != in.ID || res.Visibility != wire.VisibilityLive {
			t.Errorf("%s: result %+v, want created=%v changed=%v live", st.name, res, st.wantCreated, st.wantChanged)
		}
		b := mustGet(t, s, in.ID)
		if !b.IndexedAt.Equal(created) {
			t.Errorf("%s: indexed_at %v, want %v", st.name, b.IndexedAt, created)
		}
		if !b.UpdatedAt.Equal(st.wantUpdated) {
			t.Errorf("%s: updated_at %v, want %v", st.name, b.UpdatedAt, st.wantUpdated)
		}
		if b.Repo == nil || b.Repo.Stars != st.wantStars {
			t.Errorf("%s: repo signal %+v, want %d stars", st.name, b.Repo, st.wantStars)
		}
	}
}

func TestGetBundleReturnsEveryField(t *testing.T) {
	s, clk := newStore(t)
	repo := repoBundle("Acme", "Widgets", "docs/okf/index.md")
	repo.Repo.PushedAt = &wire.Timestamp{Time: time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)}
	site := siteBundle("https://Docs.Example.com/kb/index.md")
	site.Card.ConceptList = nil
	mustUpsert(t, s, repo)
	mustUpsert(t, s, site)
	at := wire.Timestamp{Time: clk.Now()}

	full := "acme/widgets"
	wantRepo := store.Bundle{Card: repo.Card, Visibility: wire.VisibilityLive}
	wantRepo.Source = wire.BundleSource{Origin: source.OriginCodeHost, Via: source.ViaSweep,
		URL: "https://github.com/Acme/Widgets", Host: "github.com", Repo: &full,
		Dir: "docs/okf", Path: "docs/okf/index.md"}
	wantRepo.IndexedAt, wantRepo.UpdatedAt = at, at
	wantSite := store.Bundle{Card: site.Card, Visibility: wire.VisibilityLive}
	wantSite.IndexedAt, wantSite.UpdatedAt = at, at
	wantSite.ConceptList = wire.ConceptList{}
	for _, want := range []store.Bundle{wantRepo, wantSite} {
		got := mustGet(t, s, want.ID)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GetBundle(%s)\n got %+v\nwant %+v", want.ID, got, want)
		}
	}
	if got := mustGet(t, s, site.ID); got.Repo != nil || got.Source.Repo != nil {
		t.Errorf("domain bundle has a repository: %+v %v", got.Repo, got.Source.Repo)
	}
}

func TestGetBundleVisibility(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	live := repoBundle("a", "one", "index.md")
	low := repoBundle("a", "one", "examples/demo/index.md")
	hidden := repoBundle("a", "one", "gone/index.md")
	for _, in := range []store.BundleInput{live, low, hidden} {
		mustUpsert(t, s, in)
	}
	if err := s.HideBundle(ctx, hidden.ID); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id      string
		wantVis wire.Visibility
		wantErr error
	}{
		{live.ID, wire.VisibilityLive, nil},
		{low.ID, wire.VisibilityLow, nil},
		{hidden.ID, "", store.ErrNotFound},
		{"no-such-bundle", "", store.ErrNotFound},
	}
	for _, tt := range tests {
		b, err := s.GetBundle(ctx, tt.id)
		if !errors.Is(err, tt.wantErr) || b.Visibility != tt.wantVis {
			t.Errorf("GetBundle(%s) = %q, %v; want %q, %v", tt.id, b.Visibility, err, tt.wantVis, tt.wantErr)
		}
	}
}

func TestUpsertCleansText(t *testing.T) {
	s, _ := newStore(t)
	in := repoBundle("acme", "dirty", "index.md")
	in.Card.Name = "Na\x00me \xff\xfeok"
	in.Card.Description = "body\x00 with NUL and bad \xc3\x28 bytes; ünïcode stays"
	in.Card.ConceptList = wire.ConceptList{{Name: "C\x00x", URL: "https://x/\xff", Summary: "s\x00"}}
	in.Repo.License = ptr("MIT\x00")
	mustUpsert(t, s, in)
	b := mustGet(t, s, in.ID)
	if b.Name != "Name ok" || b.Description != "body with NUL and bad ( bytes; ünïcode stays" {
		t.Errorf("text not cleaned: %q / %q", b.Name, b.Description)
	}
	if c := b.ConceptList[0]; c.Name != "Cx" || c.URL != "https://x/" || c.Summary != "s" {
		t.Errorf("concept not cleaned: %+v", c)
	}
	if *b.Repo.License != "MIT" {
		t.Errorf("license not cleaned: %q", *b.Repo.License)
	}
}

func TestUpsertRejectsMissingIdentity(t *testing.T) {
	s, _ := newStore(t)
	for _, in := range []store.BundleInput{
		func() store.BundleInput { in := repoBundle("a", "b", "index.md"); in.ID = ""; return in }(),
		func() store.BundleInput { in := repoBundle("a", "b", "index.md"); in.RootSHA256 = ""; return in }(),
	} {
		if _, err := s.UpsertBundle(context.Background(), in); err == nil {
			t.Errorf("UpsertBundle(%q, root %q) succeeded", in.ID, in.RootSHA256)
		}
	}
}

func TestDeleteBundle(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	in := repoBundle("acme", "widgets", "index.md")
	mustUpsert(t, s, in)
	if err := s.DeleteBundle(ctx, in.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetBundle(ctx, in.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetBundle after delete: %v", err)
	}
	if err := s.DeleteBundle(ctx, in.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second DeleteBundle: %v, want ErrNotFound", err)
	}
	// A deleted bundle written again is new, with a new indexed_at.
	if res := mustUpsert(t, s, in); !res.Created {
		t.Errorf("re-upsert after delete: %+v", res)
	}
}

// rowVersion is the xmin of a bundle's row: it changes when the row is written.
func rowVersion(t *testing.T, s *store.Store, id string) string {
	t.Helper()
	var v string
	err := s.Pool().QueryRow(context.Background(), `SELECT coalesce((SELECT xmin::text FROM bundles WHERE id = $1), '')`, id).Scan(&v)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
