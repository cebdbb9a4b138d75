package store

import (
	"strconv"
	"strings"
)

// The facet form of a search's filters. bundles_live_search and
// bundles_live_search_head index each bundle's facet values as lexemes
// beside its words (okf_facets, migration 0029), so a filter on a value is
// a text condition of the same GIN index: the scan intersects it with the
// words' matches, skipping through the longer posting list, instead of
// reading every match of the words in the heap to test the value. The
// web page's counts of a text search use it (pagecounts.go), and so does a
// sorted search whose matches are few by the statistics (narrowMatches);
// other statements keep the column form (filters): a walk of a sort index
// tests a row's columns, where okf_facets costs about a microsecond a row
// to compute.

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
	groups := facetGroups(p)
	if buckets > 0 && buckets < sampleBuckets {
		g := make([]string, buckets)
		for i := range g {
			g[i] = "sample=" + strconv.Itoa(i)
		}
		groups = append(groups, g)
	}
	rest := p
	rest.Origin, rest.Versions, rest.Languages, rest.Types, rest.Licenses, rest.ConceptBands = "", nil, nil, nil, nil, nil
	where = b.filters(rest)
	if len(groups) > 0 {
		ands := make([]string, len(groups))
		for i, g := range groups {
			alts := make([]string, len(g))
			for k, lexeme := range g {
				alts[k] = tsLexeme(lexeme)
			}
			ands[i] = "(" + strings.Join(alts, " | ") + ")"
		}
		facets = facetsExpr + ` @@ ` + b.arg(strings.Join(ands, " & ")) + `::tsquery`
	}
	return where, facets
}

// facetGroups are p's filters on facet values as okf_facets' lexemes: a
// bundle passes when it holds one lexeme of each group.
func facetGroups(p SearchParams) [][]string {
	var groups [][]string
	group := func(key string, values []string) {
		g := make([]string, len(values))
		for i, v := range values {
			g[i] = key + "=" + v
		}
		groups = append(groups, g)
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
	return groups
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
