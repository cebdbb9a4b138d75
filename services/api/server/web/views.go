package web

import (
	"html/template"
	"net/url"
	"strings"

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

// CardView is one search result.
type CardView struct {
	URL        string
	Name       template.HTML // highlighted, escaped
	Tagline    template.HTML // highlighted, escaped
	Version    string
	Concepts   int
	Origin     string // the repository (as GitHub spells it) or the host
	OwnerURL   string // the owner's page, "" for a domain bundle
	RepoURL    string // the repository's page, "" for a domain bundle
	Visibility string // low: kept out of search (owner and repository pages)
	Repo       *RepoView
	Updated    Date
	Snippet    *SnippetView // the passage q matched, nil when none to show
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
	v := CardView{
		URL: "/b/" + url.PathEscape(c.ID), Name: h.Mark(c.Name), Tagline: h.Mark(c.Tagline),
		Version: c.OKFVersion, Concepts: c.Concepts, Origin: c.Source.Host, Repo: repoView(c.Repo), Updated: dateOf(c.UpdatedAt),
		Snippet: snippetView(c.Snippet),
	}
	if c.Source.Repo != nil {
		v.Origin = DisplayRepo(c)
		v.OwnerURL, v.RepoURL = OwnerPath(*c.Source.Repo), RepoPath(*c.Source.Repo)
	}
	return v
}

// DisplayRepo is a repository bundle's owner/repo as GitHub spells it: the
// store keeps it lowercase (contract 2.3), and the source URL as the
// sweep read it, in GitHub's case.
func DisplayRepo(c wire.Card) string { return c.Source.DisplayRepo() }

// OwnerPath is the page of the owner of repo (owner/name).
func OwnerPath(repo string) string {
	owner, _, _ := strings.Cut(repo, "/")
	return "/o/" + url.PathEscape(owner)
}

// RepoPath is the page of repository repo (owner/name).
func RepoPath(repo string) string {
	owner, name, _ := strings.Cut(repo, "/")
	return "/r/" + url.PathEscape(owner) + "/" + url.PathEscape(name)
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
		Total: thousands(st.Total),
	}
	if st.LastUpdate != nil {
		v.LastUpdate = dateOf(*st.LastUpdate)
	}
	origins := []wire.Facet{{V: "code_host", N: st.ByOrigin[wire.OriginCodeHost]}, {V: "domain", N: st.ByOrigin[wire.OriginDomain]}}
	v.Charts = append(v.Charts, chart("origin", "By origin", origins, func(v string) string { return OriginLabel(wire.Origin(v)) }),
		chart("version", "By OKF version", st.ByVersion, nil), chart("language", "By repository language", st.ByLanguage, nil))
	if full {
		v.Charts = append(v.Charts, chart("type", "By type", st.ByType, nil),
			chart("concepts", "By number of concepts", st.ByConcepts, nil), chart("license", "By license", st.ByLicense, nil))
	}
	return v
}

// maxBars bounds the bars of one chart.
const maxBars = 12

// chart draws facets; label names a value in words (nil: as it is).
func chart(param, title string, facets []wire.Facet, label func(string) string) Chart {
	c := Chart{ID: "chart-" + param, Title: title, Param: param}
	var top int64 = 1
	for _, f := range facets {
		top = max(top, f.N)
	}
	for i, f := range facets[:min(len(facets), maxBars)] {
		text := f.V
		if label != nil {
			text = label(f.V)
		}
		if r := []rune(text); len(r) > 24 {
			text = string(r[:23]) + "…"
		}
		c.Bars = append(c.Bars, Bar{
			Label: text, N: f.N, Count: thousands(f.N),
			Href: "/?" + url.Values{param: {f.V}}.Encode(),
			Y:    i * barRow, TextY: i*barRow + 17, Width: max(2, int(f.N*barSpace/top)),
		})
	}
	c.Height = max(barRow, len(c.Bars)*barRow)
	return c
}

// ErrorView is the page of a failed request: what happened, in words, and
// where to go from there.
type ErrorView struct {
	Chrome
	Status   int
	Heading  string
	Message  string
	Retry    bool // a failure of ours or a limit: trying again later may work
	NotFound bool
}

// NewErrorView builds an error page of status with the API's message.
func NewErrorView(status int, message string, full bool) ErrorView {
	v := ErrorView{Status: status, Message: message}
	switch {
	case status == 404:
		v.Heading, v.NotFound = "Not found", true
	case status == 405:
		v.Heading = "This address does not answer that method"
	case status == 429:
		v.Heading, v.Retry = "Too many requests", true
	case status >= 500:
		v.Heading, v.Retry = "Something failed on our side", true
	default:
		v.Heading = "This request cannot be answered"
	}
	v.Chrome = Chrome{Title: v.Heading + " · OKF Index", Full: full}
	return v
}
