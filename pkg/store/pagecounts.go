package store

// The web page's counts: how many live bundles a search finds ("About N
// results"), the facets of those bundles, and the bundles of one owner or
// repository. Each is bounded so that it costs about what a page of the
// search costs, whatever the index's size:
//
//   - CountMatches counts the matches up to CountCap+1 rows (a LIMIT under
//     the count), so a count is exact up to the list's end (MaxOffset) and
//     reads at most CountCap+1 rows; past it the number is the planner's
//     estimate of the same statement (EXPLAIN, no rows read), never less
//     than CountCap+1. When the statistics of q's words already show more
//     than CountCap matches (a search for any of its words, or for one
//     word, without filters: manyFactor), nothing is read and the number
//     is their estimate.
//   - SearchFacets counts the same way and groups the rows it counted (at
//     most CountCap+1, read in no particular order: the planner takes the
//     cheapest path) by each facet in the same statement: exact up to
//     CountCap, else each count is the sample's share of the estimate,
//     marked estimated. When the statistics show many matches, the sample
//     is the matches of a few of the text index's 64 buckets (a hash of
//     the id), which its scan finds without collecting every match.
//   - A text search's filters on facet values are tested in the text
//     index itself (facetquery.go), one scan for the words and the values.
//   - OwnerBundles and RepoBundles read the bundles_repo_path index
//     (repo, path; migration 0028): a repository's bundles in the page's
//     order, at most OwnerPageLimit+1 rows; an owner's, a range of it.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Bounds of the page's counts.
const (
	// CountCap is the largest exact count: the list ends there (MaxOffset).
	CountCap = MaxOffset
	// OwnerPageLimit is the most bundles an owner or repository page lists.
	OwnerPageLimit = 200
)

// MatchCount is how many live bundles a search finds.
type MatchCount struct {
	N     int64
	Exact bool // false: N is an estimate, more than CountCap
	// Some is true when no bundle holds every word of q and the count is
	// of the bundles holding some of them, as the search lists then.
	Some bool
}

// manyFactor: a search whose commonest term the statistics give this many
// times CountCap+1 bundles has more than CountCap matches whatever the
// sample's error and the share of hidden bundles: its count is estimated
// without reading a match.
const manyFactor = 4

// sampleWant is how many matches the sample buckets of a search of many
// matches are chosen to hold (facetFilters): twice what the facets read,
// so that they fill it whatever the estimate's error. At most
// maxSampleBuckets are read: the scan of more costs more than collecting
// the matches (7 buckets of a word of 30,000 matches at 1M: twice the
// time).
const (
	sampleWant       = 2 * manySample
	maxSampleBuckets = 2
)

// manySample is how many matches the facets of a search of many matches
// (estimated in any case) are counted over: half the exact count's rows,
// as each is a heap visit, and enough for a value of one match in a few
// hundred to show.
const manySample = 500

// matches is a search's matches as the counts read them.
type matches struct {
	// where is the WHERE clause of the bundles a search lists (its filters
	// and, with q, its terms: every one, or with some any one); "" when q
	// has nothing to look for.
	where string
	// many is true when the statistics show more than CountCap matches
	// (manyFactor), est then their estimate: for a search without filters
	// for any term, or for a q of one term.
	many bool
	est  int64
}

// matchesOf returns the matches of a search with p, of the first buckets
// sample buckets only when buckets is between 0 and sampleBuckets. The
// filters are in facet form (facetFilters) when q is looked up, so that
// the text index's one scan tests both.
func (s *Store) matchesOf(ctx context.Context, b *sqlBuilder, p SearchParams, look termMatch, buckets int) (matches, error) {
	if p.Q == "" {
		return matches{where: b.filters(p)}, nil
	}
	where, facets := b.facetFilters(p, buckets)
	parsed := searchtext.ParseQuery(p.Q)
	if excludesItself(parsed) {
		return matches{}, ErrQueryExcludesItself
	}
	weighed := s.weigh(ctx, parsed)
	b.widePrefix, b.folded = look.wide, s.foldTerms(ctx, p.Q, weighed)
	tq, ok := b.textQuery(p.Q, weighed) // the terms Search looks up
	if !ok {
		return matches{}, nil
	}
	m := matches{where: where + ` AND ` + tq.whereFaceted(look.any, facets)}
	if !p.filtered() && (look.any || len(weighed.Terms) == 1) && !look.wide {
		least, est := s.termRows(ctx, weighed)
		m.many, m.est = least >= manyFactor*(CountCap+1), int64(est)
	}
	return m, nil
}

// CountMatches counts the live bundles a search with p lists (p's Sort,
// Limit, Offset and After are ignored): exact up to CountCap, estimated
// past it. When no bundle holds every word of a q of several words, the
// search lists those holding some (words are optional), and so does the
// count.
func (s *Store) CountMatches(ctx context.Context, p SearchParams) (c MatchCount, err error) {
	for _, look := range s.countLookups(ctx, p) {
		if c, err = s.countMatches(ctx, p, look); err != nil || c.N > 0 {
			c.Some = look.any && c.N > 0
			return c, err
		}
	}
	return c, err
}

// countLookups are the lookups of q a count tries in turn, as Search does,
// until one finds a bundle: every term, any term (words are optional), and
// when the word being typed may widen, the same again with it beginning any
// word of a bundle (widens).
func (s *Store) countLookups(ctx context.Context, p SearchParams) []termMatch {
	if p.Q == "" {
		return []termMatch{{}}
	}
	looks := []termMatch{{}, {any: true}}
	if widens(s.weigh(ctx, searchtext.ParseQuery(p.Q))) {
		looks = append(looks, termMatch{wide: true}, termMatch{any: true, wide: true})
	}
	return looks
}

func (s *Store) countMatches(ctx context.Context, p SearchParams, look termMatch) (MatchCount, error) {
	b := &sqlBuilder{}
	m, err := s.matchesOf(ctx, b, p, look, 0)
	if err != nil || m.where == "" {
		return MatchCount{Exact: true}, err
	}
	if m.many {
		return MatchCount{N: max(m.est, CountCap+1)}, nil
	}
	var n int64
	err = s.read.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM bundles WHERE `+m.where+
		` LIMIT `+strconv.Itoa(CountCap+1)+`) AS m`, b.args...).Scan(&n)
	if stoppedByReadTimeout(ctx, err) {
		return MatchCount{}, ErrSearchTimeout
	}
	if err != nil {
		return MatchCount{}, fmt.Errorf("store: count matches: %w", err)
	}
	if n <= CountCap {
		return MatchCount{N: n, Exact: true}, nil
	}
	est, err := s.estimateRows(ctx, `SELECT 1 FROM bundles WHERE `+m.where, b.args)
	if err != nil {
		return MatchCount{}, err
	}
	return MatchCount{N: max(est, CountCap+1)}, nil
}

// estimateRows is the planner's estimate of the rows sql returns.
func (s *Store) estimateRows(ctx context.Context, sql string, args []any) (int64, error) {
	var plan []byte
	if err := s.read.QueryRow(ctx, `EXPLAIN (FORMAT JSON) `+sql, args...).Scan(&plan); err != nil {
		return 0, fmt.Errorf("store: estimate: %w", err)
	}
	var doc []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &doc); err != nil || len(doc) == 0 {
		return 0, fmt.Errorf("store: estimate: unreadable plan: %v", err)
	}
	return int64(doc[0].Plan.Rows), nil
}

// SearchFacets are the facets of the bundles a search lists.
type SearchFacets struct {
	ByOrigin   map[wire.Origin]int64
	ByVersion  []wire.Facet
	ByLanguage []wire.Facet
	ByType     []wire.Facet
	ByLicense  []wire.Facet
	ByConcepts []wire.Facet // the bands, in band order, zero ones included
	// Estimated is true when the matches outnumber FacetSample: every
	// count is then a sample's share of the estimated total.
	Estimated bool
}

// facetSampleSQL groups the sample m of a search's matches by each facet.
const facetSampleSQL = `
SELECT f, v, count(*) FROM m, LATERAL (VALUES
	('origin', origin), ('version', okf_version), ('language', repo_language),
	('type', nullif(type, '')), ('license', repo_license), ('concepts', okf_concepts_band(concepts))
) AS facet(f, v)
WHERE v IS NOT NULL
GROUP BY f, v
ORDER BY f, count(*) DESC, v`

// SearchFacets counts a search's matches (as CountMatches) and, for each
// facet, the values among them, in one statement over a sample of at most
// CountCap+1 matches: exact up to CountCap, past it the count is the
// planner's estimate and each facet count the sample's share of it.
func (s *Store) SearchFacets(ctx context.Context, p SearchParams) (c MatchCount, f SearchFacets, err error) {
	for _, look := range s.countLookups(ctx, p) {
		if c, f, err = s.searchFacets(ctx, p, look); err != nil || c.N > 0 {
			c.Some = look.any && c.N > 0
			return c, f, err
		}
	}
	return c, f, err
}

func (s *Store) searchFacets(ctx context.Context, p SearchParams, look termMatch) (MatchCount, SearchFacets, error) {
	out := SearchFacets{ByOrigin: map[wire.Origin]int64{}}
	for _, band := range ConceptBands {
		out.ByConcepts = append(out.ByConcepts, wire.Facet{V: band})
	}
	b := &sqlBuilder{}
	m, err := s.matchesOf(ctx, b, p, look, 0)
	if err != nil || m.where == "" {
		return MatchCount{Exact: true}, out, err
	}
	var counts []facetCount
	buckets := 0
	if m.many {
		buckets = int((int64(sampleBuckets)*sampleWant + m.est - 1) / max(m.est, 1))
	}
	if buckets > 0 && buckets <= cmp.Or(s.sampleBucketsMax, maxSampleBuckets) {
		// The sample is the matches of a few buckets, enough to hold
		// sampleWant of them by the estimate: the index's scan finds them
		// without collecting the hundreds of thousands of others.
		sb := &sqlBuilder{}
		sm, err := s.matchesOf(ctx, sb, p, look, buckets)
		if err != nil {
			return MatchCount{}, out, err
		}
		if counts, err = s.facetSample(ctx, sm.where, sb.args, manySample); err != nil {
			return MatchCount{}, out, err
		}
		m.many = len(counts) > 0 // else the statistics were wrong: read the matches
	}
	if len(counts) == 0 {
		limit := CountCap + 1
		if m.many {
			limit = manySample
		}
		if counts, err = s.facetSample(ctx, m.where, b.args, limit); err != nil {
			return MatchCount{}, out, err
		}
	}
	var sampled int64
	for _, c := range counts {
		if c.f == "origin" {
			sampled += c.n
		}
	}
	total := MatchCount{N: sampled, Exact: true}
	scale := func(n int64) int64 { return n }
	switch {
	case m.many:
		total = MatchCount{N: max(m.est, CountCap+1)}
	case sampled > CountCap:
		est, err := s.estimateRows(ctx, `SELECT 1 FROM bundles WHERE `+m.where, b.args)
		if err != nil {
			return MatchCount{}, out, err
		}
		total = MatchCount{N: max(est, CountCap+1)}
	}
	if !total.Exact {
		out.Estimated = true
		scale = func(n int64) int64 { return max(1, n*total.N/sampled) }
	}
	for _, c := range counts {
		f := wire.Facet{V: c.v, N: scale(c.n)}
		switch c.f {
		case "origin":
			out.ByOrigin[wire.Origin(c.v)] = f.N
		case "version":
			out.ByVersion = append(out.ByVersion, f)
		case "language":
			out.ByLanguage = append(out.ByLanguage, f)
		case "type":
			out.ByType = append(out.ByType, f)
		case "license":
			out.ByLicense = append(out.ByLicense, f)
		case "concepts":
			for i := range out.ByConcepts {
				if out.ByConcepts[i].V == c.v {
					out.ByConcepts[i].N = f.N
				}
			}
		}
	}
	return total, out, nil
}

// facetCount is one value's count in a sample of matches.
type facetCount struct {
	f, v string
	n    int64
}

// facetSample groups at most limit of the bundles passing where by each
// facet.
func (s *Store) facetSample(ctx context.Context, where string, args []any, limit int) ([]facetCount, error) {
	rows, err := s.read.Query(ctx, `WITH m AS MATERIALIZED (SELECT origin, okf_version, repo_language, type, repo_license, concepts
		FROM bundles WHERE `+where+` LIMIT `+strconv.Itoa(limit)+`)`+facetSampleSQL, args...)
	if err != nil {
		return nil, fmt.Errorf("store: search facets: %w", err)
	}
	counts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (facetCount, error) {
		var c facetCount
		return c, r.Scan(&c.f, &c.v, &c.n)
	})
	if stoppedByReadTimeout(ctx, err) {
		return nil, ErrSearchTimeout
	}
	if err != nil {
		return nil, fmt.Errorf("store: search facets: %w", err)
	}
	return counts, nil
}

// OwnerBundles lists the bundles of owner's repositories that are not
// hidden, by repository and path, at most OwnerPageLimit; more is true when
// there are more. owner is matched as stored (lowercase).
func (s *Store) OwnerBundles(ctx context.Context, owner string) (list []Bundle, more bool, err error) {
	// The range reads bundles_repo_path: every owner/... lies between "owner/"
	// and "owner0" ('/' sorts just before '0' in C and in the Unicode
	// collations, glibc's since 2.28 and ICU's), and split_part keeps the
	// owner's own whatever the collation puts in between.
	return s.ownedBundles(ctx, `repo >= $1 || '/' AND repo < $1 || '0' AND split_part(repo, '/', 1) = $1 AND visibility <> 'hidden'`,
		`repo, path COLLATE "C"`, owner)
}

// RepoBundles lists the bundles of repository repo (owner/name, lowercase)
// that are not hidden, by path, at most OwnerPageLimit; more is true when
// there are more.
func (s *Store) RepoBundles(ctx context.Context, repo string) (list []Bundle, more bool, err error) {
	return s.ownedBundles(ctx, `repo = $1 AND visibility <> 'hidden'`, `path COLLATE "C"`, repo)
}

func (s *Store) ownedBundles(ctx context.Context, where, order, arg string) ([]Bundle, bool, error) {
	rows, err := s.read.Query(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE `+where+
		` ORDER BY `+order+` LIMIT `+strconv.Itoa(OwnerPageLimit+1), arg)
	if err != nil {
		return nil, false, fmt.Errorf("store: owned bundles: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Bundle, error) { return scanBundle(r) })
	if err != nil {
		return nil, false, fmt.Errorf("store: owned bundles: %w", err)
	}
	if len(list) > OwnerPageLimit {
		return list[:OwnerPageLimit], true, nil
	}
	return list, false, nil
}
