package web

import (
	"encoding/json"
	"html/template"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The bundle page: what a visitor reads (the name once, the description
// whole to its contract length, the concepts once, where it comes from in
// words), how to use the bundle (copyable lines), and, collapsed, what its
// owner checks.

// ConceptView is one concept of a bundle page.
type ConceptView struct {
	Name, URL, Summary string // URL: http(s) only, else ""
}

// CopyLine is one copyable line (or block) of a bundle page.
type CopyLine struct {
	ID, Label, Text string
	Rows            int // more than 1: a block
}

// BundleView is the bundle page.
type BundleView struct {
	Chrome
	Card        wire.Card
	Description template.HTML
	// DescriptionCut is true when the description stops at the contract's
	// length; the root has the rest.
	DescriptionCut bool
	Concepts       []ConceptView
	Repo           *RepoView
	Origin         string // owner/repo as GitHub spells it, or the host
	OwnerURL       string // the owner's page, "" for a domain bundle
	RepoURL        string // the repository's page, "" for a domain bundle
	Provenance     string // where it was found, in words
	Low            bool   // kept out of search
	JSONURL        string
	Indexed        Date
	Updated        Date
	// Use are the lines of "Use this bundle": the raw root, a sparse clone
	// of the bundle's directory, the MCP call.
	Use []CopyLine
	// Owner are the lines of "For the owner": the okfctl lint line.
	Owner []CopyLine
	// BrokenLinks is the sentence that counts the concept links pointing at
	// files missing from the repository at the latest read ("" when none
	// are, or no read checked them); StatusURL is the repository's owner
	// status (GET /api/status), "" for a domain bundle.
	BrokenLinks string
	StatusURL   string
}

// SetLinks records the latest read's count of the bundle's concept links
// inside its repository and of those pointing at missing files.
func (v *BundleView) SetLinks(total, missing int) {
	if missing > 0 {
		v.BrokenLinks = okf.MissingLinksLine(missing, total)
	}
}

// ImportedProvenance is the provenance of a bundle okfctl import wrote: the
// operator's copy of its repository (store.Bundle.Imported).
const ImportedProvenance = "Imported from a copy of its GitHub repository by the operator of this index"

// SetImported says the bundle came in through okfctl import.
func (v *BundleView) SetImported() { v.Provenance = ImportedProvenance }

// NewBundleView builds the page of card c; baseURL is the service's public
// base, for the MCP call.
func NewBundleView(c wire.Card, full bool, baseURL string) BundleView {
	desc, cut := wholeDescription(c.Description, okf.MaxDescriptionRunes, slices.Contains(c.Cut, "description"))
	v := BundleView{
		Chrome:         Chrome{Title: c.Name + " · OKF Index", Description: c.Tagline, Full: full},
		Card:           c,
		Description:    renderDescription(desc, c.Name, len(c.ConceptList) > 0),
		DescriptionCut: cut,
		Repo:           repoView(c.Repo),
		Origin:         c.Source.Host,
		JSONURL:        "/api/bundles/" + url.PathEscape(c.ID),
		Indexed:        dateOf(c.IndexedAt),
		Updated:        dateOf(c.UpdatedAt),
		Provenance:     Provenance(c.Source),
	}
	if c.Source.Repo != nil {
		v.Origin = DisplayRepo(c)
		v.OwnerURL, v.RepoURL = OwnerPath(*c.Source.Repo), RepoPath(*c.Source.Repo)
		v.StatusURL = "/api/status?" + url.Values{"repo": {*c.Source.Repo}}.Encode()
	}
	for _, k := range c.ConceptList {
		v.Concepts = append(v.Concepts, ConceptView{Name: k.Name, URL: webURL(k.URL), Summary: k.Summary})
	}
	v.Card.IndexURL, v.Card.PageURL, v.Card.Source.URL = webURL(c.IndexURL), webURL(c.PageURL), webURL(c.Source.URL)
	if v.Card.IndexURL != "" {
		v.Use = append(v.Use, CopyLine{ID: "use-raw", Label: "The root, raw (index.md)", Text: v.Card.IndexURL, Rows: 1})
	}
	if clone := cloneLines(c, v.Origin); clone != "" {
		v.Use = append(v.Use, CopyLine{ID: "use-clone", Label: "Only this bundle's files, with git", Text: clone, Rows: strings.Count(clone, "\n") + 1})
	}
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "get_bundle", "arguments": map[string]string{"id": c.ID}}})
	v.Use = append(v.Use, CopyLine{ID: "use-mcp", Label: "Its card over MCP (POST " + baseURL + "/mcp)", Text: string(call), Rows: 1})
	v.Owner = append(v.Owner, CopyLine{ID: "lint", Label: "Check the root with okfctl", Text: lintLine(c), Rows: 1})
	return v
}

// cloneLines are the git commands that fetch only the bundle's directory
// of its repository (a sparse, blobless, shallow clone); "" for a domain
// bundle.
func cloneLines(c wire.Card, display string) string {
	if c.Source.Repo == nil || display == "" {
		return ""
	}
	dirName := path.Base(display)
	lines := []string{"git clone --depth 1 --filter=blob:none --sparse " + shellWord("https://github.com/"+display+".git"),
		"cd " + shellWord(dirName)}
	if c.Source.Dir != "" {
		lines = append(lines, "git sparse-checkout set "+shellWord(c.Source.Dir))
	} else {
		lines = append(lines, "git sparse-checkout disable")
	}
	return strings.Join(lines, "\n")
}

// Provenance says where a bundle was found, in words.
func Provenance(s wire.BundleSource) string {
	switch {
	case s.Via == "indexnow":
		return "Published by IndexNow from " + s.Host
	case s.Origin == wire.OriginCodeHost:
		return "Found on GitHub by the daily sweep"
	}
	return "Found on " + s.Host
}
