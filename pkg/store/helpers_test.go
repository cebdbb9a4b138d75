package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// newClock is a test clock at 2026-03-01 12:00 UTC that moves only when told.
func newClock() *clocktest.Clock {
	return clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// newStore opens a Store on a fresh database with a test clock.
func newStore(t *testing.T) (*store.Store, *clocktest.Clock) {
	t.Helper()
	clk := newClock()
	s, err := store.Open(context.Background(), store.Config{URL: storetest.NewDatabase(t), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, clk
}

func ptr[T any](v T) *T { return &v }

// repoBundle is a repository bundle input at owner/name:path.
func repoBundle(owner, name, path string) store.BundleInput {
	r := source.Repo{Owner: owner, Name: name, Path: path}
	full := r.FullName()
	return store.BundleInput{
		Card: wire.Card{
			ID:          r.ID(),
			Name:        owner + " " + name,
			Tagline:     "A bundle of " + name,
			Description: "Knowledge about " + name + ".",
			OKFVersion:  "0.1",
			Concepts:    2,
			ConceptList: wire.ConceptList{
				{Name: "Alpha", URL: r.RepoURL() + "/alpha.md", Summary: "first letter"},
				{Name: "Beta", URL: r.RepoURL() + "/beta.md", Summary: "second letter"},
			},
			Type:     "reference",
			IndexURL: r.IndexURL(),
			PageURL:  r.PageURL(),
			Source: wire.BundleSource{
				Origin: source.OriginCodeHost, Via: source.ViaSweep, URL: r.RepoURL(),
				Host: "github.com", Repo: &full, Dir: r.Dir(), Path: path,
			},
			Repo: &wire.RepoSignal{
				Stars: 10, Forks: 1, State: ptr(source.StateActive),
				Language: ptr("Go"), License: ptr("MIT"),
			},
		},
		RootSHA256: sha256Hex(r.Identity()),
		Low:        r.Low(),
	}
}

// siteBundle is a domain bundle input at rootURL.
func siteBundle(rootURL string) store.BundleInput {
	s := source.Site{URL: rootURL}
	return store.BundleInput{
		Card: wire.Card{
			ID:          s.ID(),
			Name:        s.Host() + " bundle",
			Description: "Served by " + s.Host() + ".",
			OKFVersion:  "0.2",
			IndexURL:    rootURL,
			PageURL:     rootURL,
			Source: wire.BundleSource{
				Origin: source.OriginDomain, Via: source.ViaIndexNow, URL: s.SiteURL(),
				Host: s.Host(), Dir: s.Dir(), Path: s.Path(),
			},
		},
		RootSHA256: sha256Hex(rootURL),
		Low:        s.Low(),
	}
}

// mustUpsert writes in and fails the test on error.
func mustUpsert(t *testing.T, s *store.Store, in store.BundleInput) store.UpsertResult {
	t.Helper()
	res, err := s.UpsertBundle(context.Background(), in)
	if err != nil {
		t.Fatalf("upsert %s: %v", in.ID, err)
	}
	return res
}

// mustGet reads a bundle and fails the test on error.
func mustGet(t *testing.T, s *store.Store, id string) store.Bundle {
	t.Helper()
	b, err := s.GetBundle(context.Background(), id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return b
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// upsertBatches writes ins with UpsertBundles, 500 a batch (it takes at
// most 1000), calling between after each batch if it is not nil (to move
// a test clock: batches apart in the recency order).
func upsertBatches(t *testing.T, s *store.Store, ins []store.BundleInput, between func()) {
	t.Helper()
	for len(ins) > 0 {
		n := min(len(ins), 500)
		if _, err := s.UpsertBundles(context.Background(), ins[:n]); err != nil {
			t.Fatal(err)
		}
		ins = ins[n:]
		if between != nil {
			between()
		}
	}
}
