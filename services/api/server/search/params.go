package search

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/query"
)

// Limits of GET /api/bundles (contract 4.1 and 8; the ones the contract
// leaves open are decided here and published in api/openapi.json).
const (
	defaultLimit  = store.DefaultLimit  // 24
	maxLimit      = store.MaxLimit      // 100; a larger limit is clamped to it
	resultCap     = store.MaxOffset     // 1000; the list ends here
	maxQLen       = 200                 // characters of q (decided here)
	maxConceptLen = 80                  // characters of concept
	maxListValues = query.MaxListValues // values of version, language, concepts, type, license
	maxVersionLen = 20                  // characters of one version value (decided here)
	maxValueLen   = 40                  // characters of one language (decided here), type or license value
	maxCursorLen  = 600                 // characters of cursor (a name sort key holds a name)
)

// repoShape is an owner/repo as the code host spells them.
var repoShape = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$`)

// ParseSearch validates the query string of GET /api/bundles into the
// store's parameters, in the form store.SearchParams documents: this is the
// one place that trims, lowercases, resolves the github alias and applies
// the defaults, and the store takes the values as they are. The rules,
// beyond the contract's:
//
//   - An empty value is the same as leaving the parameter out; so is a q or
//     concept of only spaces.
//   - Unknown parameters are ignored (so cache-busters work).
//   - A list parameter (version, language, concepts, type, license) given
//     more than once is read as one comma-separated list; any other
//     parameter given more than once is a 400.
//   - List values are split on commas and trimmed of spaces; a blank value
//     ("a,,b") is a 400; the count and length limits apply to the values as
//     written; repeated values count once in the search.
//   - Lengths are in characters (Unicode code points); values must be UTF-8
//     without NUL characters.
//   - origin, sort and the concepts bands are matched exactly (lowercase).
//   - limit and offset are whole numbers written in digits only; a limit
//     above 100 is clamped to 100 and an offset above 1000 is read as 1000.
//   - sort=relevance without q orders as recent.
//   - A full-only parameter with a value on a base deployment is a 400
//     unsupported_parameter.
//   - cursor is what a next link carries beside offset: the sort key of the
//     last bundle of the page before, opaque. With it the page starts after
//     that bundle (offset still ends the list at 1000); one not made for
//     this sort is a 400.
func ParseSearch(rawQuery string, full bool) (store.SearchParams, error) {
	p := store.SearchParams{Sort: wire.SortRecent, Limit: defaultLimit}
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return p, apierror.Parameter("", "The query string is not valid URL encoding.")
	}
	r := query.Reader{Vals: vals, Full: full}

	if q, ok := r.Scalar("q", false); ok {
		if r.MaxLen("q", q, maxQLen) {
			p.Q = strings.TrimSpace(q)
		}
	}
	if origin, ok := r.Scalar("origin", false); ok {
		switch origin := wire.Origin(origin); origin {
		case wire.OriginCodeHost, "github":
			p.Origin = wire.OriginCodeHost
		case wire.OriginDomain:
			p.Origin = wire.OriginDomain
		default:
			r.Fail(apierror.Parameter("origin", "origin must be code_host, domain or github."))
		}
	}
	if repo, ok := r.Scalar("repo", false); ok {
		if !repoShape.MatchString(repo) {
			r.Fail(apierror.Parameter("repo", "repo must be one repository written owner/repo."))
		}
		p.Repo = strings.ToLower(repo)
	}
	p.Versions = r.List("version", false, maxVersionLen)
	p.Languages = r.List("language", false, maxValueLen)
	if concept, ok := r.Scalar("concept", true); ok {
		if r.MaxLen("concept", concept, maxConceptLen) {
			p.Concept = strings.TrimSpace(concept)
		}
	}
	p.ConceptBands = r.List("concepts", true, 0)
	for _, band := range p.ConceptBands {
		if !slices.Contains(store.ConceptBands, band) {
			r.Fail(apierror.Parameter("concepts", "concepts takes the bands 0, 1-5, 6-20, 21-100 and 101+; %q is not one.", band))
		}
	}
	p.Types = r.List("type", true, maxValueLen)
	p.Licenses = r.List("license", true, maxValueLen)
	if sort, ok := r.Scalar("sort", false); ok {
		switch sort := wire.Sort(sort); sort {
		case wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars, wire.SortRelevance:
			p.Sort = sort
		default:
			r.Fail(apierror.Parameter("sort", "sort must be recent, updated, name, stars or relevance."))
		}
	}
	if p.Sort == wire.SortRelevance && p.Q == "" {
		p.Sort = wire.SortRecent
	}
	if limit, ok := r.Scalar("limit", false); ok {
		n, valid := query.WholeNumber(limit, maxLimit)
		if !valid || n < 1 {
			r.Fail(apierror.Parameter("limit", "limit must be a whole number of at least 1 (above 100 it counts as 100)."))
		}
		p.Limit = n
	}
	if offset, ok := r.Scalar("offset", false); ok {
		n, valid := query.WholeNumber(offset, resultCap)
		if !valid {
			r.Fail(apierror.Parameter("offset", "offset must be a whole number of at least 0."))
		}
		p.Offset = n
	}
	if cursor, ok := r.Scalar("cursor", false); ok {
		if r.MaxLen("cursor", cursor, maxCursorLen) && store.CheckCursor(cursor, p.Sort) != nil {
			r.Fail(apierror.Parameter("cursor", "cursor must be copied from a next link of the same sort."))
		}
		p.After = cursor
	}
	return p, r.Err()
}

// CanonicalQuery encodes a search in one fixed form: parameters in the
// contract's order, filters only when set, sort only when not recent, limit
// and offset always, cursor last when there is one; commas and slashes are
// left unescaped. Two equal searches encode equally, so next links are
// stable; and it is the page cache's key (cache.go), so every field of
// store.SearchParams must be written here and read back by ParseSearch, or
// two different searches would share a cached answer
// (TestCanonicalQueryKeepsEveryParameter fails until they are).
func CanonicalQuery(p store.SearchParams) string {
	var b strings.Builder
	add := func(k, v string) {
		if v == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		v = url.QueryEscape(v)
		v = strings.ReplaceAll(v, "%2C", ",")
		v = strings.ReplaceAll(v, "%2F", "/")
		b.WriteString(v)
	}
	add("q", p.Q)
	add("origin", string(p.Origin))
	add("repo", p.Repo)
	add("version", strings.Join(p.Versions, ","))
	add("language", strings.Join(p.Languages, ","))
	add("concept", p.Concept)
	add("concepts", strings.Join(p.ConceptBands, ","))
	add("type", strings.Join(p.Types, ","))
	add("license", strings.Join(p.Licenses, ","))
	if p.Sort != wire.SortRecent {
		add("sort", string(p.Sort))
	}
	add("limit", strconv.Itoa(p.Limit))
	add("offset", fmt.Sprint(p.Offset))
	add("cursor", p.After)
	return b.String()
}
