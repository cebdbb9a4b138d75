package store

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/wire"
)

// sortOrders are the ORDER BY clauses of the sorts, each matching its index.
var sortOrders = map[wire.Sort]string{
	wire.SortRecent:  `indexed_at DESC, id`,
	wire.SortUpdated: `updated_at DESC, id`,
	wire.SortName:    `lower(name) COLLATE "C", id`,
	wire.SortStars:   `repo_stars DESC NULLS LAST, id`,
}

// searchSQL is the statement of a search and its arguments; "" when the
// search returns nothing without asking the database. Its rows are
// bundleColumns, then the relevance tier and repo_stars (for the cursor).
// folded are the values of q's text query calls (foldTerms); nil leaves
// the calls in the statement.
func searchSQL(p SearchParams, parsed searchtext.Query, m termMatch, folded map[termCall]string) (string, []any, error) {
	limit, offset := p.pageLimit(), max(p.Offset, 0)
	if offset > MaxOffset {
		return "", nil, nil
	}
	sort, q := p.Sort, p.Q
	if sort == "" {
		sort = wire.SortRecent
	}
	if _, ok := sortOrders[sort]; !ok && sort != wire.SortRelevance {
		return "", nil, fmt.Errorf("store: search: unknown sort %q", p.Sort)
	}
	if sort == wire.SortRelevance && q == "" {
		return "", nil, errors.New("store: search: relevance needs a text query")
	}
	b := &sqlBuilder{widePrefix: m.wide, folded: folded}
	var tq textQuery
	if q != "" {
		var ok bool
		if tq, ok = b.textQuery(q, parsed); !ok {
			return "", nil, nil // nothing to look for
		}
	}
	narrow := q != "" && m.narrow
	var filters, facets string
	if narrow {
		filters, facets = b.facetFilters(p, 0)
	} else {
		filters = b.filters(p)
	}
	after := ""
	if p.After != "" {
		k, err := decodeCursor(p.After, sort)
		if err != nil {
			return "", nil, err
		}
		after, offset = b.after(k), 0
	}
	if sort == wire.SortRelevance {
		if narrow && facets != "" {
			// Every source reads the facet values in the text indexes with
			// the words, and sorts what it reads (relevance).
			filters += ` AND ` + facets
		}
		headFilters := ""
		if !narrow && m.narrowHead {
			if where, facets := b.facetFilters(p, 0); facets != "" {
				headFilters = where + ` AND ` + facets
			}
		}
		return b.relevance(tq, filters, headFilters, limit, offset, after, m), b.args, nil
	}
	where := filters
	if after != "" {
		where += ` AND ` + after
	}
	if narrow {
		return sortedMatches(tq.whereFaceted(m.any, facets), where, sortOrders[sort], limit, offset, 0), b.args, nil
	}
	// A deep page, q's rare terms any of which may match, and a wide
	// prefix read the matches in the text index and sort them. The planner
	// gives a prefix that no word its statistics list begins a share of a
	// few per thousand, and walked the sort index for one that began no
	// word at all (a million rows, past the read timeout): a wide prefix's
	// matches are read at most wideCap.
	if q != "" && (m.deep || m.wide || m.any && m.rare && len(tq.terms) > 1) {
		most := 0
		if m.wide {
			most = wideCap
		}
		return sortedMatches(tq.where(m.any), where, sortOrders[sort], limit, offset, most), b.args, nil
	}
	if q != "" {
		where += ` AND ` + tq.where(m.any)
	}
	return `SELECT ` + bundleColumns + `, 0, repo_stars FROM bundles WHERE ` + where +
		` ORDER BY ` + sortOrders[sort] +
		` LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset), b.args, nil
}

// termMatch is how a search looks q's terms up.
type termMatch struct {
	// any lists the bundles holding any term of q (a sorted search's
	// fallback), not every term.
	any bool
	// rare says that q's terms are rare (rareTerms): their matches are
	// read whole and sorted, not found by walking the recency or sort
	// index (sortedMatches, relevance's partial tier).
	rare bool
	// narrow says that a search's matches, with its filters on facet
	// values, are few (narrowMatches): a sorted search reads them whole
	// through the text index and sorts them (sortedMatches); relevance, of
	// one term only, reads each source so (relevance).
	narrow bool
	// narrowHead says that relevance's newest head matches with the
	// search's filters on facet values are cheaper read through the head's
	// text index with the values, and sorted, than found by a walk
	// (narrowHead): h reads them so, the other sources as before.
	narrowHead bool
	// few says that the bundles holding every term of q (of several) are
	// few by the live bundles' shares (fewMatches): relevance reads its
	// sources of them (the newest head matches, the rest) through the text
	// index and sorts them.
	few bool
	// rarest is 1 + the index of q's term whose matches the live bundles'
	// shares put at no more than narrowCap, the fewest of its terms', when
	// it has several (rarestTerm); 0 for none. Relevance's partial tier
	// reads them as candidates too.
	rarest int
	// deep says that a sorted search's page lies so deep in its matches
	// that reading them all through the text index and sorting them costs
	// less than walking the sort index to it (deepMatches).
	deep bool
	// many says that the bundles holding every term of q (of several) are
	// so many by the live bundles' shares that relevance's partial tier
	// would add nothing to the page (manyMatches): the statement leaves it
	// out, and Search asks again with it when the page comes back short.
	many bool
	// wide lets the word being typed begin any word of the bundle, its
	// description and concepts too, not only a name or tagline word: the
	// lookup of a search that found nothing otherwise (widens).
	wide bool
}

// sortedMatches is the statement of a sorted search that reads every
// bundle passing where and match, without the order (OFFSET 0 keeps the
// planner from walking the sort index for them), and sorts the first
// offset+limit: for the bundles holding any of q's terms when the terms
// are rare, and for q's matches with filters on facet values when they are
// few (narrowMatches, match then in facet form). The planner estimates a
// disjunction of words its statistics do not list at several times each
// word's share (4,333 rows for a word, its stem and two glued forms that
// three bundles hold, at 1M), and walked the sort index expecting a match
// every few hundred rows: two rare words read 418,280 rows. The rows are
// passed on by ctid, stable within the statement's snapshot, not by id,
// which is read out of line. most, when above 0, bounds the matches read
// (a wide prefix's, wideCap): the list is then of the first most found.
func sortedMatches(match, where, order string, limit, offset, most int) string {
	bound := ` OFFSET 0`
	if most > 0 {
		bound = ` LIMIT ` + strconv.Itoa(most) + bound
	}
	// The matches are cut to the first offset+limit by the order's key
	// without its final id, ties kept (WITH TIES), and only those are
	// sorted with the id: an id is read out of line, and sorting 30,000
	// matches by it read each one's (four buffers a row).
	key := strings.TrimSuffix(order, `, id`)
	return `SELECT ` + bundleColumns + `, 0, repo_stars FROM bundles
WHERE ctid = ANY (ARRAY(
	SELECT ctid FROM (
		SELECT ctid, indexed_at, updated_at, name, repo_stars FROM bundles
		WHERE ` + where + ` AND ` + match + bound + `) AS m
	ORDER BY ` + key + ` FETCH FIRST ` + strconv.Itoa(offset+limit) + ` ROWS WITH TIES))
ORDER BY ` + order + ` LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset)
}

// wideCap is the most matches a sorted search of a wide prefix reads (and
// sorts): a list ends at MaxOffset+MaxLimit.
const wideCap = MaxOffset + MaxLimit

// sqlBuilder collects the arguments of a search statement.
type sqlBuilder struct {
	args []any
	// widePrefix: the text queries it makes let the word being typed begin
	// any word of the whole vector (termMatch.wide).
	widePrefix bool
	// folded are the values of the text query functions' calls that the
	// statement passes as parameters instead of making them (termfold.go).
	folded map[termCall]string
	// recording: the builder only collects the calls its text queries
	// make, in calls.
	recording bool
	calls     []termCall
}

// call is c in a statement: its value, when folded holds it, or the call.
func (b *sqlBuilder) call(c termCall) string {
	if b.recording {
		b.calls = append(b.calls, c)
	}
	if v, ok := b.folded[c]; ok {
		return b.arg(v) + `::tsquery`
	}
	return c.sql(b)
}

// callPair is the calls of okf_term of one word, as written and as a
// prefix too, which share their arguments: a statement may use either
// alone, and a parameter no statement reads has no type.
func (b *sqlBuilder) callPair(word, begun termCall) (plain, typed string) {
	if b.recording {
		b.calls = append(b.calls, word, begun)
	}
	v1, ok1 := b.folded[word]
	v2, ok2 := b.folded[begun]
	if ok1 && ok2 {
		both := b.arg([]string{v1, v2})
		return `(` + both + `::text[])[1]::tsquery`, `(` + both + `::text[])[2]::tsquery`
	}
	w, lang := b.arg(word.text), b.arg(word.lang)
	return `okf_term(` + w + `, false, ` + lang + `)`, `okf_term(` + w + `, true, ` + lang + `)`
}

// arg adds v and returns its placeholder.
func (b *sqlBuilder) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

// filters is the WHERE clause of p's filters, q excluded. The visibility
// predicate is written as the partial indexes write it.
func (b *sqlBuilder) filters(p SearchParams) string {
	w := []string{`visibility = 'live'`}
	if p.Origin != "" {
		w = append(w, `origin = `+b.arg(p.Origin))
	}
	if p.Repo != "" {
		w = append(w, `repo = `+b.arg(p.Repo))
	}
	if len(p.Versions) > 0 {
		w = append(w, b.oneOf(`okf_version`, p.Versions))
	}
	if len(p.Languages) > 0 {
		w = append(w, b.oneOf(`lower(repo_language)`, lowerAll(p.Languages)))
	}
	if p.Concept != "" {
		words := conceptWords(p.Concept)
		if len(words) == 0 {
			w = append(w, `false`) // no word to look for
		} else {
			w = append(w, `search @@ `+b.conceptPhrase(words))
		}
	}
	if len(p.ConceptBands) > 0 {
		w = append(w, b.oneOf(`okf_concepts_band(concepts)`, p.ConceptBands))
	}
	if len(p.Types) > 0 {
		w = append(w, b.oneOf(`type`, p.Types))
	}
	if len(p.Licenses) > 0 {
		w = append(w, b.oneOf(`lower(repo_license)`, lowerAll(p.Licenses)))
	}
	return strings.Join(w, " AND ")
}

// oneOf is the test that column (an expression) is one of values: an
// equality when there is one value. The sort indexes carry the facets
// after their keys (migration 0031), and a walk of one tests an equality
// in the index, reading the heap only for the rows that pass; = ANY on a
// column after the first is tested on the heap's row instead (Postgres 15
// keeps a scan of several array values to its index's order only on the
// first column), which read ~18,000 rows to find the 1,000 most starred
// bundles of a language of 4%.
func (b *sqlBuilder) oneOf(column string, values []string) string {
	if len(values) == 1 {
		return column + ` = ` + b.arg(values[0])
	}
	return column + ` = ANY(` + b.arg(values) + `)`
}

// qualified prefixes each column of a comma-separated list with alias.
func qualified(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// lowerAll lowercases the values of a filter matched case-insensitively
// against a lower() column.
func lowerAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.ToLower(v)
	}
	return out
}

// maxConceptWords bounds the words of a concept filter (the API allows 80
// characters).
const maxConceptWords = 16

// conceptPhrase is the text query of the concept filter's words: each the
// start of a word of the root content (C and D, indexed stemmed), in order
// and adjacent, where a stop word (which a bundle in its language does not
// index) keeps its place without being looked up. A filter of stop words
// alone looks them all up.
func (b *sqlBuilder) conceptPhrase(words []string) string {
	skipStops := slices.ContainsFunc(words, func(w string) bool { return !searchtext.IsStopWord(w) })
	q, gap := ``, 1
	for _, word := range words {
		if skipStops && searchtext.IsStopWord(word) {
			if q != `` { // a stop word before the first word holds no place
				gap++
			}
			continue
		}
		next := b.call(termCall{fn: "okf_prefix", text: word, opt: "CD"})
		if q == `` {
			q = next
		} else {
			q = `tsquery_phrase(` + q + `, ` + next + `, ` + strconv.Itoa(gap) + `)`
		}
		gap = 1
	}
	return q
}

// conceptWords are the words of the concept filter c, in order, at most
// maxConceptWords; none when c has no word.
func conceptWords(c string) []string {
	words := splitWords(c)
	return words[:min(len(words), maxConceptWords)]
}
