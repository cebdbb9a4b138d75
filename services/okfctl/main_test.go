package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// corpusDir is ../shared/corpus/real beside the checkout.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/corpus/real")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Fatalf("the real corpus must be at %s (../shared beside the checkout): %v", dir, err)
	}
	return dir
}

// manifestRow is one line of the corpus MANIFEST.tsv.
type manifestRow struct {
	Repo, BundleDir, IndexPath, Kind string
}

func (r manifestRow) file(corpus string) string {
	return filepath.Join(corpus, strings.ReplaceAll(r.Repo, "/", "__"), filepath.FromSlash(r.IndexPath))
}

// isBundle says whether the manifest calls the file a bundle root.
func (r manifestRow) isBundle() bool {
	return strings.HasPrefix(r.Kind, "bundle") || r.Kind == "fixture" || r.Kind == "unattributed"
}

func readManifest(t *testing.T, corpus string) []manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []manifestRow
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 10 {
			continue
		}
		rows = append(rows, manifestRow{Repo: cols[0], BundleDir: cols[1], IndexPath: cols[2], Kind: cols[9]})
	}
	if len(rows) < 50 {
		t.Fatalf("MANIFEST.tsv has only %d rows", len(rows))
	}
	return rows
}
