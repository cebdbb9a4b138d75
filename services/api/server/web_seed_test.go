package server

import (
	"fmt"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// hostileDescription is a bundle description that tries every way to run
// something in the page.
const hostileDescription = "# Hostile\n\n<script>alert('script')</script>\n\n" +
	"<img src=x onerror=\"alert('onerror')\">\n\n" +
	"[click me](javascript:alert('link'))\n\n" +
	"[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)\n\n" +
	"<a href=\"javascript:alert('raw')\" onclick=\"alert('onclick')\">raw link</a>\n\n" +
	"<svg onload=\"alert('svg')\"></svg>\n\n" +
	"A [safe link](https://example.org/doc) and `code`.\n"

// webCorpus is what the page tests search: 30 guides over two versions and
// three languages (two pages at the default 24), a domain bundle, and one
// hostile bundle. It returns the ids: guides first, then the domain
// bundle, then the hostile one.
func webCorpus(t testing.TB, st *store.Store) []string {
	t.Helper()
	var ins []store.BundleInput
	langs := []string{"Go", "Python", "Rust"}
	for i := range 30 {
		version := "0.1"
		if i%3 == 0 {
			version = "0.2"
		}
		card := wire.Card{Name: fmt.Sprintf("Field guide %02d", i), Tagline: fmt.Sprintf("Recipes and notes, part %d", i),
			Description: "A guide with **bold** words.", OKFVersion: version, Concepts: i % 7, ConceptList: concepts("https://github.com/acme/guide", i%7)}
		ins = append(ins, repoBundle("acme", fmt.Sprintf("guide-%02d", i), "index.md", card, signal(100-i, langs[i%3], "MIT")))
	}
	ins = append(ins, siteBundle("https://docs.example.org/okf/index.md", wire.Card{Name: "Example docs", Tagline: "Docs of a domain",
		Description: "Domain docs.", OKFVersion: "0.1", Concepts: 1, ConceptList: concepts("https://docs.example.org/okf", 1)}))
	ins = append(ins, repoBundle("mallory", "hostile", "index.md", wire.Card{Name: "Hostile <b>bundle</b>",
		Tagline: "Tries <script>alert('tagline')</script>", Description: hostileDescription, OKFVersion: "0.2", Concepts: 1,
		ConceptList: wire.ConceptList{{Name: "bad", URL: "javascript:alert('concept')", Summary: "<img src=x onerror=alert(1)>"}}},
		signal(1, "Go", "")))
	ids := upsert(t, st, ins...)
	// The sweep's read of guide 03 found one of its three concept links
	// pointing at a missing file: its page says so.
	if err := st.RecordRepoReads(t.Context(), []store.RepoRead{{Repo: "acme/guide-03", Commit: "0123abcd", Roots: []store.RootVerdict{
		{Path: "index.md", BundleID: ids[3], LinksTotal: 3, LinksMissing: 1, LinksChecked: true}}}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	recount(t, st)
	return ids
}
