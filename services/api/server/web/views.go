package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Chrome is what the layout of every page needs.
type Chrome struct {
	Title       string
	Description string
	Nav         string // the current section: search or stats
	Full        bool   // the full variant (more filters, more facets)
	Canonical   string // absolute URL of the page, or ""
}

// Option is one choice of a filter or a select.
type Option struct {
	Value, Label string
	Count        int64 // 0: not shown
	Checked      bool
}

// FilterGroup is one multi-valued filter of the search form (a fieldset of
// checkboxes named Name).
type FilterGroup struct {
	Name, Label string
	Options     []Option
}

// CardView is one search result.
type CardView struct {
	URL      string
	Name     template.HTML // highlighted, escaped
	Tagline  template.HTML // highlighted, escaped
	Version  string
	Concepts int
	Origin   string // the repository or the host
	Repo     *RepoView
	Updated  Date
	Snippet  *SnippetView // the passage q matched, nil when none to show
}

// RepoView is a repository's signals as shown.
type RepoView struct {
	Stars, Forks             int
	Language, License, State string
	Pushed                   Date
}

// Date is a day as shown and as machine-readable.
type Date struct{ Text, ISO string }

func dateOf(t wire.Timestamp) Date {
	if t.IsZero() {
		return Date{}
	}
	return Date{t.UTC().Format("2 Jan 2006"), t.UTC().Format("2006-01-02")}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// repoView is the signals of a repository bundle, nil for a domain bundle.
func repoView(r *wire.RepoSignal) *RepoView {
	if r == nil {
		return nil
	}
	v := &RepoView{Stars: r.Stars, Forks: r.Forks, Language: deref(r.Language), License: deref(r.License), State: deref(r.State)}
	if r.PushedAt != nil {
		v.Pushed = dateOf(*r.PushedAt)
	}
	return v
}

// cardView is a search result of c with the query's words marked.
func cardView(c wire.Card, h Highlighter) CardView {
	origin := c.Source.Host
	if c.Source.Repo != nil {
		origin = *c.Source.Repo
	}
	return CardView{
		URL: "/b/" + url.PathEscape(c.ID), Name: h.Mark(c.Name), Tagline: h.Mark(c.Tagline),
		Version: c.OKFVersion, Concepts: c.Concepts, Origin: origin, Repo: repoView(c.Repo), Updated: dateOf(c.UpdatedAt),
		Snippet: snippetView(c.Snippet),
	}
}

// Results is the list part of the search page, also served alone.
type Results struct {
	Items    []CardView
	From, To int    // 1-based positions of the first and last item
	Next     string // the next page's link, from the API's own next; "" on the last
	First    string // the first page's link when this is a later one
	Error    string // a refused query, in one sentence
	Searched bool   // a text query was given
	// DidYouMean are the page's did_you_mean, each linked to the same
	// search with it as q.
	DidYouMean []Suggestion
}

// SearchView is the search page.
type SearchView struct {
	Chrome
	Q       string
	Origins []Option
	Sorts   []Option
	Filters []FilterGroup
	Results Results
}

// SearchInput is what the server hands over to build a search page.
type SearchInput struct {
	Q, Origin, Sort string
	Selected        map[string][]string // version, language, type, license, concepts
	Stats           wire.IndexStats     // facets offered as filters
	Page            wire.Page
	NextQuery       string     // query string of the next page; "" when none
	Form            url.Values // the page's parameters as given, for the did-you-mean links
	FirstQuery      string     // query string of the first page, when Page is a later one
	Err             string
	Full            bool
}

// ConceptBands are the bands of the concepts filter, in order.
var ConceptBands = []string{"0", "1-5", "6-20", "21-100", "101+"}

// NewSearchView builds the search page.
func NewSearchView(in SearchInput) SearchView {
	h := NewHighlighter(in.Q)
	title := "OKF Index: search OKF bundles"
	if in.Q != "" {
		title = in.Q + " · OKF Index"
	}
	v := SearchView{
		Chrome: Chrome{Title: title, Nav: "search", Full: in.Full,
			Description: "Search the public index of OKF (Open Knowledge Format) bundles by name, topic, version and language."},
		Q:       in.Q,
		Origins: choices(in.Origin, [][2]string{{"", "Any origin"}, {"code_host", "Code host (GitHub)"}, {"domain", "Domain (IndexNow)"}}),
		Sorts: choices(in.Sort, [][2]string{{"", "Best match, or newest"}, {"relevance", "Relevance"}, {"recent", "Newest"},
			{"updated", "Recently updated"}, {"name", "Name"}, {"stars", "Stars"}}),
	}
	v.Filters = append(v.Filters,
		group("version", "Version", in.Stats.ByVersion, in.Selected["version"], 8),
		group("language", "Language", in.Stats.ByLanguage, in.Selected["language"], 10))
	if in.Full {
		bands := make([]wire.Facet, 0, len(ConceptBands))
		for _, b := range ConceptBands {
			bands = append(bands, wire.Facet{V: b, N: facetCount(in.Stats.ByConcepts, b)})
		}
		v.Filters = append(v.Filters,
			group("type", "Type", in.Stats.ByType, in.Selected["type"], 8),
			group("license", "License", in.Stats.ByLicense, in.Selected["license"], 8),
			group("concepts", "Concepts", bands, in.Selected["concepts"], len(ConceptBands)))
	}
	r := Results{Error: in.Err, Searched: in.Q != "", From: in.Page.Offset + 1, To: in.Page.Offset + len(in.Page.Items)}
	for _, c := range in.Page.Items {
		r.Items = append(r.Items, cardView(c, h))
	}
	for _, q := range in.Page.DidYouMean {
		r.DidYouMean = append(r.DidYouMean, Suggestion{Text: q, URL: "/?" + withQ(in.Form, q)})
	}
	if in.NextQuery != "" {
		r.Next = "/?" + in.NextQuery
	}
	if in.FirstQuery != "" {
		r.First = "/?" + in.FirstQuery
	}
	v.Results = r
	return v
}

func choices(selected string, opts [][2]string) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = Option{Value: o[0], Label: o[1], Checked: o[0] == selected}
	}
	return out
}

func facetCount(fs []wire.Facet, v string) int64 {
	for _, f := range fs {
		if f.V == v {
			return f.N
		}
	}
	return 0
}

// group offers the first max values of a facet, and any selected value the
// facet does not list, so a selection can always be undone.
func group(name, label string, facets []wire.Facet, selected []string, max int) FilterGroup {
	g := FilterGroup{Name: name, Label: label}
	sel := map[string]bool{}
	for _, s := range selected {
		sel[s] = true
	}
	for i, f := range facets {
		if i < max || sel[f.V] {
			g.Options = append(g.Options, Option{Value: f.V, Label: f.V, Count: f.N, Checked: sel[f.V]})
			delete(sel, f.V)
		}
	}
	for _, s := range selected {
		if sel[s] {
			g.Options = append(g.Options, Option{Value: s, Label: s, Checked: true})
		}
	}
	return g
}

// ConceptView is one concept of a bundle page.
type ConceptView struct {
	Name, URL, Summary string // URL: http(s) only, else ""
}

// BundleView is the bundle page.
type BundleView struct {
	Chrome
	Card        wire.Card
	Description template.HTML
	Concepts    []ConceptView
	Repo        *RepoView
	Origin      string
	JSONURL     string
	LintLine    string
	Indexed     Date
	Updated     Date
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

// NewBundleView builds the page of card c.
func NewBundleView(c wire.Card, full bool) BundleView {
	v := BundleView{
		Chrome:      Chrome{Title: c.Name + " · OKF Index", Description: c.Tagline, Full: full},
		Card:        c,
		Description: Markdown(c.Description),
		Repo:        repoView(c.Repo),
		Origin:      c.Source.Host,
		JSONURL:     "/api/bundles/" + url.PathEscape(c.ID),
		LintLine:    lintLine(c),
		Indexed:     dateOf(c.IndexedAt),
		Updated:     dateOf(c.UpdatedAt),
	}
	if c.Source.Repo != nil {
		v.Origin = *c.Source.Repo
		v.StatusURL = "/api/status?" + url.Values{"repo": {*c.Source.Repo}}.Encode()
	}
	for _, k := range c.ConceptList {
		v.Concepts = append(v.Concepts, ConceptView{Name: k.Name, URL: webURL(k.URL), Summary: k.Summary})
	}
	v.Card.IndexURL, v.Card.PageURL, v.Card.Source.URL = webURL(c.IndexURL), webURL(c.PageURL), webURL(c.Source.URL)
	return v
}

// webURL keeps an absolute http or https URL and drops anything else.
func webURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return s
}

// lintLine is the okfctl line an owner runs on the bundle's root.
func lintLine(c wire.Card) string {
	if c.Source.Repo == nil {
		return "okfctl lint --url " + shellWord(c.IndexURL) + " index.md"
	}
	line := "okfctl lint --repo " + shellWord(*c.Source.Repo)
	if c.Source.Dir != "" {
		line += " --dir " + shellWord(c.Source.Dir)
	}
	return line + " " + shellWord(strings.TrimPrefix(c.Source.Dir+"/index.md", "/"))
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:-@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Chart is one facet drawn as horizontal bars.
type Chart struct {
	ID, Title, Param string
	Height           int
	Bars             []Bar
}

// Bar is one value of a chart, placed in the chart's 600-wide box.
type Bar struct {
	Label, Href string
	N           int64
	Y, Width    int
	TextY       int
	Count       string
}

// StatsView is the statistics page.
type StatsView struct {
	Chrome
	Total      string
	LastUpdate Date
	Charts     []Chart
}

const (
	barRow   = 26
	barSpace = 330 // widest bar
)

// NewStatsView builds the statistics page.
func NewStatsView(st wire.IndexStats, full bool) StatsView {
	v := StatsView{
		Chrome: Chrome{Title: "Statistics · OKF Index", Nav: "stats", Full: full,
			Description: "What the OKF Index holds: bundles by origin, version and language."},
		Total: strconv.FormatInt(st.Total, 10),
	}
	if st.LastUpdate != nil {
		v.LastUpdate = dateOf(*st.LastUpdate)
	}
	origins := []wire.Facet{{V: "code_host", N: st.ByOrigin[wire.OriginCodeHost]}, {V: "domain", N: st.ByOrigin[wire.OriginDomain]}}
	v.Charts = append(v.Charts, chart("origin", "By origin", origins),
		chart("version", "By OKF version", st.ByVersion), chart("language", "By repository language", st.ByLanguage))
	if full {
		v.Charts = append(v.Charts, chart("type", "By type", st.ByType),
			chart("concepts", "By number of concepts", st.ByConcepts), chart("license", "By license", st.ByLicense))
	}
	return v
}

// maxBars bounds the bars of one chart.
const maxBars = 12

func chart(param, title string, facets []wire.Facet) Chart {
	c := Chart{ID: "chart-" + param, Title: title, Param: param}
	var top int64 = 1
	for _, f := range facets {
		top = max(top, f.N)
	}
	for i, f := range facets[:min(len(facets), maxBars)] {
		label := f.V
		if r := []rune(label); len(r) > 24 {
			label = string(r[:23]) + "…"
		}
		c.Bars = append(c.Bars, Bar{
			Label: label, N: f.N, Count: strconv.FormatInt(f.N, 10),
			Href: "/?" + url.Values{param: {f.V}}.Encode(),
			Y:    i * barRow, TextY: i*barRow + 17, Width: max(2, int(f.N*barSpace/top)),
		})
	}
	c.Height = max(barRow, len(c.Bars)*barRow)
	return c
}

// ErrorView is the page of a missing bundle or a failure.
type ErrorView struct {
	Chrome
	Status  int
	Message string
}

// NewErrorView builds an error page.
func NewErrorView(status int, message string, full bool) ErrorView {
	return ErrorView{Chrome: Chrome{Title: "Not found · OKF Index", Full: full}, Status: status, Message: message}
}
