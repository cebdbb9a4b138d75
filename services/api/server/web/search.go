package web

import (
	"net/url"
	"slices"
	"strings"

	"github.com/okfindex/okf-index/pkg/wire"
)

// The search page: the form, its filters with counts for the query, the
// results with their count and numbered pages, and, on the bare first page,
// the landing part that says what the index is.

// ResultCap is where the list ends: no search lists more (contract 8).
const ResultCap = 1000

// Count is how many bundles a search finds.
type Count struct {
	N     int64
	Exact bool // false: an estimate, past ResultCap
	Known bool // false: not counted (a refused query)
}

// FacetCounts are the counts of the filters' values for the query.
type FacetCounts struct {
	ByOrigin   map[wire.Origin]int64
	ByVersion  []wire.Facet
	ByLanguage []wire.Facet
	ByType     []wire.Facet
	ByLicense  []wire.Facet
	ByConcepts []wire.Facet
	Estimated  bool // the counts are a sample's share of an estimated total
}

// Option is one choice of a filter or a select.
type Option struct {
	Value, Label string
	Count        string // "" when not shown
	Checked      bool
}

// FilterGroup is one multi-valued filter of the search form (a fieldset of
// checkboxes named Name): the first values, and the rest behind "more".
type FilterGroup struct {
	Name, Label string
	Options     []Option
	More        []Option
}

// Chip is an active filter, linked to the same search without it.
type Chip struct{ Label, URL string }

// PageLink is one link of the pager.
type PageLink struct {
	Number  int
	URL     string
	Current bool
	Gap     bool // an ellipsis before this link
}

// Results is the list part of the search page, also served alone.
type Results struct {
	Items     []CardView
	From, To  int    // 1-based positions of the first and last item
	CountText string // "About 2,400 results", "32 results", "1 result"; "" when not counted
	Next      string // the next page's link, "" on the last
	Prev      string // the previous page's link, "" on the first
	First     string // the first page's link when this is a later one
	Pages     []PageLink
	Error     string // a refused query, in one sentence
	Searched  bool   // a text query was given
	// Past says why a page past the list's end is empty: past the cap, or
	// past the last result; "" otherwise.
	Past string
	// Filtered is true when a filter is set; ClearURL is the same search
	// without any.
	Filtered bool
	ClearURL string
	Chips    []Chip
	// DidYouMean are the page's did_you_mean, each linked to the same
	// search with it as q.
	DidYouMean []Suggestion
	// Typed and Corrected: the page lists what Corrected finds, since
	// no bundle held every word of Typed, the q as typed; both "" otherwise.
	Typed, Corrected string
}

// SearchView is the search page.
type SearchView struct {
	Chrome
	Q       string
	Origins []Option
	Sorts   []Option
	Filters []FilterGroup
	Results Results
	// FiltersOpen keeps the filters open on a phone: some are set.
	FiltersOpen bool
	Landing     *Landing // the bare first page only
}

// Landing is what the bare first page says besides the results: what OKF
// is, how to publish, and short lists of bundles.
type Landing struct {
	Lists []BundleList
}

// BundleList is a short titled list of bundles.
type BundleList struct {
	ID, Title, MoreURL string
	Items              []CardView
}

// SearchInput is what the server hands over to build a search page.
type SearchInput struct {
	Q, Origin, Sort string
	Selected        map[string][]string // version, language, type, license, concepts
	Index           wire.IndexStats     // every value of every facet, for "more"
	Facets          *FacetCounts        // the query's counts; nil: the index's
	Page            wire.Page
	Count           Count
	NextQuery       string     // query string of the next page; "" when none
	Form            url.Values // the page's parameters as given
	// Typed is q as typed when the page lists what its correction finds
	// (the page's corrected_q, then Q and Form's q); "" otherwise.
	Typed string
	Err   string
	Full  bool
	// Lists are the landing lists (recently added, updated, most starred),
	// given on the bare first page only.
	Lists []BundleList
}

// ConceptBands are the bands of the concepts filter, in order.
var ConceptBands = []string{"0", "1-5", "6-20", "21-100", "101+"}

// facetShown is how many values of a filter show before "more".
const facetShown = 8

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
		Origins: choices(in.Origin, [][2]string{{"", "Any origin"}, {"code_host", "GitHub"}, {"domain", "Domains (IndexNow)"}}),
		Sorts: choices(in.Sort, [][2]string{{"", "Best match, or newest"}, {"relevance", "Relevance"}, {"recent", "Newest"},
			{"updated", "Recently updated"}, {"name", "Name"}, {"stars", "Stars"}}),
	}
	counts := in.Facets
	if counts == nil {
		counts = &FacetCounts{ByOrigin: in.Index.ByOrigin, ByVersion: in.Index.ByVersion, ByLanguage: in.Index.ByLanguage,
			ByType: in.Index.ByType, ByLicense: in.Index.ByLicense, ByConcepts: in.Index.ByConcepts}
	}
	v.Filters = append(v.Filters,
		group("version", "Version", counts.ByVersion, in.Index.ByVersion, in.Selected["version"], counts.Estimated),
		group("language", "Language", counts.ByLanguage, in.Index.ByLanguage, in.Selected["language"], counts.Estimated))
	if in.Full {
		bands := make([]wire.Facet, 0, len(ConceptBands))
		for _, b := range ConceptBands {
			bands = append(bands, wire.Facet{V: b, N: facetCount(counts.ByConcepts, b)})
		}
		v.Filters = append(v.Filters,
			group("type", "Type", counts.ByType, in.Index.ByType, in.Selected["type"], counts.Estimated),
			group("license", "License", counts.ByLicense, in.Index.ByLicense, in.Selected["license"], counts.Estimated),
			group("concepts", "Concepts", bands, nil, in.Selected["concepts"], counts.Estimated))
	}
	for _, o := range v.Origins[1:] {
		if n, ok := counts.ByOrigin[wire.Origin(o.Value)]; ok && in.Err == "" {
			v.Origins[slices.IndexFunc(v.Origins, func(x Option) bool { return x.Value == o.Value })].Label =
				o.Label + " (" + countText(n, counts.Estimated) + ")"
		}
	}

	r := Results{Error: in.Err, Searched: in.Q != "", From: in.Page.Offset + 1, To: in.Page.Offset + len(in.Page.Items)}
	for _, c := range in.Page.Items {
		r.Items = append(r.Items, cardView(c, h))
	}
	if in.Typed != "" {
		r.Typed, r.Corrected = in.Typed, in.Q
	} else {
		for _, q := range in.Page.DidYouMean {
			r.DidYouMean = append(r.DidYouMean, Suggestion{Text: q, URL: "/?" + withQ(in.Form, q)})
		}
	}
	if in.NextQuery != "" {
		r.Next = "/?" + in.NextQuery
	}
	r.Chips, r.ClearURL = chips(in.Form, in.Origin)
	r.Filtered = len(r.Chips) > 0
	v.FiltersOpen = r.Filtered
	if in.Count.Known && in.Err == "" {
		r.CountText = resultsText(in.Count)
		pager(&r, in)
	}
	v.Results = r
	if len(in.Lists) > 0 {
		v.Landing = &Landing{Lists: in.Lists}
	}
	return v
}

// LandingList builds one landing list of cards.
func LandingList(id, title, moreURL string, cards []wire.Card) BundleList {
	l := BundleList{ID: id, Title: title, MoreURL: moreURL}
	for _, c := range cards {
		l.Items = append(l.Items, cardView(c, Highlighter{}))
	}
	return l
}

// OriginLabel is an origin in words.
func OriginLabel(o wire.Origin) string {
	switch o {
	case wire.OriginCodeHost:
		return "GitHub"
	case wire.OriginDomain:
		return "Domains (IndexNow)"
	}
	return string(o)
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
		if strings.EqualFold(f.V, v) {
			return f.N
		}
	}
	return 0
}

// group offers the values of a facet with the query's counts, most first:
// the first facetShown of them and every selected one in Options, the rest
// in More, and after them every value of the index (all) that the query's
// counts lack, without a count, so every value stays reachable.
func group(name, label string, counted, all []wire.Facet, selected []string, estimated bool) FilterGroup {
	g := FilterGroup{Name: name, Label: label}
	sel := map[string]bool{}
	for _, s := range selected {
		sel[strings.ToLower(s)] = true
	}
	seen := map[string]bool{}
	add := func(v string, count string) {
		k := strings.ToLower(v)
		if seen[k] {
			return
		}
		seen[k] = true
		o := Option{Value: v, Label: v, Count: count, Checked: sel[k]}
		if o.Checked || (len(g.Options) < facetShown && (count != "" || all == nil)) {
			g.Options = append(g.Options, o)
		} else {
			g.More = append(g.More, o)
		}
	}
	for _, f := range counted {
		count := ""
		if f.N > 0 {
			count = countText(f.N, estimated)
		}
		if f.N > 0 || sel[strings.ToLower(f.V)] || all == nil {
			add(f.V, count)
		}
	}
	for _, s := range selected {
		add(s, "")
	}
	for _, f := range all {
		add(f.V, "")
	}
	return g
}
