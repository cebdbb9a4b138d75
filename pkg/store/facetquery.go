package store

import (
	"strconv"
	"strings"
)

// The facet form of a search's filters, for the statements that count a
// text search's matches (pagecounts.go). bundles_live_search indexes each
// bundle's facet values as lexemes beside its search vector (okf_facets,
// migration 0029), so a filter on a value is a text condition of that same
// GIN index: the scan intersects it with the words' matches, skipping
// through the longer posting list, instead of reading every match of the
// words in the heap to test the value. The search statements keep the
// column form (filters): their walks of a sort index test a row's columns
// for about a microsecond less than its facet lexemes.

// facetsExpr is a bundle's facet lexemes as bundles_live_search indexes
// them.
const facetsExpr = `okf_facets(id, origin, okf_version, repo_language, type, repo_license, concepts)`

// sampleBuckets is how many buckets okf_facets deals the bundles into by a
// hash of the id ("sample=0" .. "sample=63").
const sampleBuckets = 64

// facetFilters is filters(p) split in two: where, the filters on columns
// (the repository and concept filters, as in filters), and facets, one
// condition on facetsExpr for the filters on facet values (origin, version,
// language, type, license, concepts band) and, when buckets is between 0
// and sampleBuckets, the bundles of the first buckets sample buckets only;
// "" when there is none of these.
func (b *sqlBuilder) facetFilters(p SearchParams, buckets int) (where, facets string) {
	var groups []string
	group := func(key string, values []string) {
		alts := make([]string, len(values))
		for i, v := range values {
			alts[i] = tsLexeme(key + "=" + v)
		}
		groups = append(groups, "("+strings.Join(alts, " | ")+")")
	}
	if p.Origin != "" {
		group("origin", []string{string(p.Origin)})
	}
	if len(p.Versions) > 0 {
		group("version", p.Versions)
	}
	if len(p.Languages) > 0 {
		group("language", lowerAll(p.Languages))
	}
	if len(p.Types) > 0 {
		group("type", p.Types)
	}
	if len(p.Licenses) > 0 {
		group("license", lowerAll(p.Licenses))
	}
	if len(p.ConceptBands) > 0 {
		group("concepts", p.ConceptBands)
	}
	if buckets > 0 && buckets < sampleBuckets {
		ids := make([]string, buckets)
		for i := range ids {
			ids[i] = strconv.Itoa(i)
		}
		group("sample", ids)
	}
	rest := p
	rest.Origin, rest.Versions, rest.Languages, rest.Types, rest.Licenses, rest.ConceptBands = "", nil, nil, nil, nil, nil
	where = b.filters(rest)
	if len(groups) > 0 {
		facets = facetsExpr + ` @@ ` + b.arg(strings.Join(groups, " & ")) + `::tsquery`
	}
	return where, facets
}

// tsLexeme quotes s as one lexeme of a tsquery's text: in single quotes,
// a quote doubled and a backslash escaped.
func tsLexeme(s string) string {
	return `'` + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + `'`
}

// filtered reports whether p has a filter.
func (p SearchParams) filtered() bool {
	return p.Origin != "" || p.Repo != "" || p.Concept != "" || len(p.Versions) > 0 || len(p.Languages) > 0 ||
		len(p.ConceptBands) > 0 || len(p.Types) > 0 || len(p.Licenses) > 0
}
