package storetest

import (
	"bufio"
	"errors"
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

// CorpusDir is the real corpus, shared/corpus/real beside the checkout
// (../shared/corpus/real from the module root, where the workspace and CI
// lay it), found from the test's working directory.
func CorpusDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "corpus", "real")
	if _, err := os.Stat(filepath.Join(corpus, "MANIFEST.tsv")); err != nil {
		t.Fatalf("the real corpus is not beside the repository: %v", err)
	}
	return corpus
}

// CorpusBundles parses every repository bundle root of the real corpus
// (MANIFEST.tsv rows of kind bundle*, and the fixtures, which are low),
// with the manifest's stars, language and license as repository signal.
func CorpusBundles(t testing.TB) []store.BundleInput {
	t.Helper()
	dir := CorpusDir(t)
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
		in.Repo = corpusSignal(stars, col[6], col[7])
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// corpusSignal is a repository signal of an active repository.
func corpusSignal(stars int, language, license string) *wire.RepoSignal {
	pushed := wire.Timestamp{Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	state := source.StateActive
	sig := &wire.RepoSignal{Stars: stars, Forks: stars / 10, PushedAt: &pushed, State: &state}
	if language != "" {
		sig.Language = &language
	}
	if license != "" {
		sig.License = &license
	}
	return sig
}
