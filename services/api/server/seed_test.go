package server

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
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

// corpusDir is shared/corpus/real beside the repository (where the
// workspace and CI lay it): ../../../../shared/corpus/real from the package
// directory services/api/server.
func corpusDir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(wd, "..", "..", "..", "..", "shared", "corpus", "real")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Fatalf("the real corpus is not beside the repository: %v", err)
	}
	return dir
}

// corpusBundles parses every repository bundle root of the real corpus
// (MANIFEST.tsv rows of kind bundle*, and the fixtures, which are low).
func corpusBundles(t testing.TB) []store.BundleInput {
	t.Helper()
	dir := corpusDir(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []store.BundleInput
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) < 10 || !(strings.HasPrefix(col[9], "bundle") || col[9] == "fixture") {
			continue
		}
		owner, name, _ := strings.Cut(col[0], "/")
		data, err := os.ReadFile(filepath.Join(dir, owner+"__"+name, col[2]))
		if err != nil {
			t.Fatal(err)
		}
		r := source.Repo{Owner: owner, Name: name, Path: col[2]}
		in, err := indexer.FromRepo(data, r, indexer.RepoInfo{}, time.Now())
		if errors.Is(err, okf.ErrNotBundle) {
			continue
		}
		if err != nil {
			t.Fatalf("parse %s: %v", r.Identity(), err)
		}
		stars, _ := strconv.Atoi(col[4])
		sig := signal(stars, col[6], col[7])
		in.Repo = &sig
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
