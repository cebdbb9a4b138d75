package web

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/wire"
)

// The results' count, pager and active-filter chips.

// resultsText is the count as the results' heading says it.
func resultsText(c Count) string {
	switch {
	case !c.Exact:
		return "About " + thousands(c.N) + " results"
	case c.N == 1:
		return "1 result"
	}
	return thousands(c.N) + " results"
}

// countText is a filter value's count; "~" marks an estimate.
func countText(n int64, estimated bool) string {
	if estimated {
		return "~" + thousands(n)
	}
	return thousands(n)
}

// thousands writes n with commas: 12,345.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pageParams are the page's own paging parameters, dropped from its links.
var pageParams = []string{"offset", "cursor", "limit"}

// pageURL is the search of form at offset, without a cursor.
func pageURL(form url.Values, offset, limit int) string {
	f := url.Values{}
	for k, vs := range form {
		if !slices.Contains(pageParams, k) {
			for _, v := range vs {
				if v != "" {
					f[k] = append(f[k], v)
				}
			}
		}
	}
	if offset > 0 {
		f.Set("offset", strconv.Itoa(offset))
	}
	if limit > 0 && limit != defaultPageSize {
		f.Set("limit", strconv.Itoa(limit))
	}
	if len(f) == 0 {
		return "/"
	}
	return "/?" + f.Encode()
}

// defaultPageSize is the API's page size when none is asked for.
const defaultPageSize = 24

// pageWindow is how many numbered pages show on each side of the current.
const pageWindow = 2

// pager fills the numbered pages, Previous and First of r, and says why a
// page past the end is empty.
func pager(r *Results, in SearchInput) {
	limit := in.Page.Limit
	if limit <= 0 {
		limit = defaultPageSize
	}
	off := in.Page.Offset
	listed := min(in.Count.N, ResultCap) // the list ends at the cap
	last := int((listed + int64(limit) - 1) / int64(limit))
	if off > 0 {
		r.First = pageURL(in.Form, 0, limit)
		r.Prev = pageURL(in.Form, max(0, off-limit), limit)
	}
	if len(in.Page.Items) == 0 && off > 0 {
		switch {
		case off >= ResultCap:
			r.Past = "The list stops at " + thousands(ResultCap) + " results, and this page starts past it. Narrow the search (more words, a filter) to reach the others."
		default:
			r.Past = "This page starts past the last result."
		}
	}
	if last <= 1 && off == 0 {
		return
	}
	current := off/limit + 1
	prev := 0
	for n := 1; n <= last; n++ {
		if n != 1 && n != last && (n < current-pageWindow || n > current+pageWindow) {
			continue
		}
		r.Pages = append(r.Pages, PageLink{Number: n, URL: pageURL(in.Form, (n-1)*limit, limit),
			Current: n == current && off%limit == 0, Gap: prev != 0 && n != prev+1})
		prev = n
	}
}

// filterLabels name the filters in chips.
var filterLabels = map[string]string{"version": "OKF", "language": "Language", "type": "Type",
	"license": "License", "concepts": "Concepts", "concept": "Concept", "repo": "Repository", "origin": "Origin"}

// chips are the active filters of form, each linked to the same search
// without it, and the link that clears them all (keeping q and sort).
func chips(form url.Values, origin string) ([]Chip, string) {
	var out []Chip
	for _, name := range []string{"origin", "repo", "version", "language", "type", "license", "concepts", "concept"} {
		for _, raw := range form[name] {
			for _, val := range strings.Split(raw, ",") {
				if val == "" {
					continue
				}
				label := val
				if name == "origin" {
					label = OriginLabel(wire.Origin(val))
				}
				out = append(out, Chip{Label: filterLabels[name] + ": " + label, URL: pageURL(without(form, name, val), 0, 0)})
			}
		}
	}
	if len(out) == 0 {
		return nil, ""
	}
	keep := url.Values{}
	for _, k := range []string{"q", "sort"} {
		if v := form.Get(k); v != "" {
			keep.Set(k, v)
		}
	}
	return out, pageURL(keep, 0, 0)
}

// without is form without one value of a filter.
func without(form url.Values, name, val string) url.Values {
	out := url.Values{}
	for k, vs := range form {
		for _, raw := range vs {
			if k != name {
				out[k] = append(out[k], raw)
				continue
			}
			var kept []string
			for _, v := range strings.Split(raw, ",") {
				if v != val && v != "" {
					kept = append(kept, v)
				}
			}
			if len(kept) > 0 {
				out[k] = append(out[k], strings.Join(kept, ","))
			}
		}
	}
	return out
}
