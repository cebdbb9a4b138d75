package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// repoBundle is the input of a repository bundle at owner/name:path with the
// given card text and repository signal.
func repoBundle(owner, name, path string, card wire.Card, sig wire.RepoSignal) store.BundleInput {
	r := source.Repo{Owner: owner, Name: name, Path: path}
	full := r.FullName()
	card.ID, card.IndexURL, card.PageURL = r.ID(), r.IndexURL(), r.PageURL()
	card.Source = wire.BundleSource{
		Origin: source.OriginCodeHost, Via: source.ViaSweep, URL: r.RepoURL(),
		Host: "github.com", Repo: &full, Dir: r.Dir(), Path: path,
	}
	card.Repo = &sig
	return store.BundleInput{Card: card, RootSHA256: rootHash(r.Identity(), card), Low: r.Low()}
}

// siteBundle is the input of a domain bundle whose root is rootURL.
func siteBundle(rootURL string, card wire.Card) store.BundleInput {
	s := source.Site{URL: rootURL}
	card.ID, card.IndexURL, card.PageURL = s.ID(), rootURL, rootURL
	card.Source = wire.BundleSource{
		Origin: source.OriginDomain, Via: source.ViaIndexNow, URL: s.SiteURL(),
		Host: s.Host(), Dir: s.Dir(), Path: s.Path(),
	}
	return store.BundleInput{Card: card, RootSHA256: rootHash(rootURL, card), Low: s.Low()}
}

// rootHash stands for the hash of a root's bytes: distinct per bundle, so no
// seeded bundle is a duplicate of another unless a test wants one.
func rootHash(identity string, card wire.Card) string {
	sum := sha256.Sum256([]byte(identity + "\x00" + card.Name + "\x00" + card.Description))
	return hex.EncodeToString(sum[:])
}

// signal is a repository signal.
func signal(stars int, language, license string) wire.RepoSignal {
	pushed := wire.Timestamp{Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	state := source.StateActive
	sig := wire.RepoSignal{Stars: stars, Forks: stars / 10, PushedAt: &pushed, State: &state}
	if language != "" {
		sig.Language = &language
	}
	if license != "" {
		sig.License = &license
	}
	return sig
}

// concepts returns n concept entries under base.
func concepts(base string, n int) wire.ConceptList {
	out := wire.ConceptList{}
	for i := range min(n, okf.MaxConceptList) {
		out = append(out, wire.Concept{Name: fmt.Sprintf("Concept %d", i), URL: fmt.Sprintf("%s/c%d.md", base, i), Summary: "about " + strconv.Itoa(i)})
	}
	return out
}

// upsert writes bundles in order and returns their ids.
func upsert(t testing.TB, st *store.Store, ins ...store.BundleInput) []string {
	t.Helper()
	ids := make([]string, 0, len(ins))
	for _, in := range ins {
		res, err := st.UpsertBundle(t.Context(), in)
		if err != nil {
			t.Fatalf("upsert %s: %v", in.ID, err)
		}
		ids = append(ids, res.ID)
	}
	return ids
}

// recount brings the statistics up to date with the bundles.
func recount(t testing.TB, st *store.Store) {
	t.Helper()
	if err := st.RecountStats(t.Context()); err != nil {
		t.Fatalf("recount stats: %v", err)
	}
}

// corpusBundles parses every repository bundle root of the real corpus.
func corpusBundles(t testing.TB) []store.BundleInput {
	return storetest.CorpusBundles(t)
}
