package store

// What the planner's statistics say of a search's matches, without reading
// a bundle: how many hold q's terms (termRows, estimateTerms; from the
// shares termweight.go reads), whether a search with filters on facet
// values has few enough matches to read them all through the text indexes
// (narrowMatches; the values' shares from bundles_facets_stats, migration
// 0029), and whether a deep page is cheaper read so (deepMatches).

import (
	"context"
	"slices"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// termRows is what the statistics say of the bundles holding some term of
// q (each term as any of its lexemes): least, a lower bound (the rows of
// its commonest listed lexeme), and est, an estimate (the lexemes taken as
// independent, as the planner takes them). For a q of one term these are
// the bundles holding q. Both 0 when the statistics cannot tell: no
// statistics, or q has a phrase or excludes words (its matches are then
// fewer than its words').
func (s *Store) termRows(ctx context.Context, q searchtext.Query) (least, est float64) {
	if len(q.Excluded) > 0 || slices.ContainsFunc(q.Terms, func(t searchtext.Term) bool { return t.Phrase }) {
		return 0, 0
	}
	e, ok := s.estimateTerms(ctx, q)
	if !ok {
		return 0, 0
	}
	return e.least, e.union
}

// termEstimates are the statistics' estimates of the rows holding q's
// terms.
type termEstimates struct {
	least float64   // the rows of the commonest listed lexeme of a word
	union float64   // the rows holding some term's word
	terms []float64 // per term, the rows holding its rarest word
	// begun are the rows holding a lexeme the word being typed begins (0
	// when no word is, or the shares were not sampled: the planner's
	// statistics list too few lexemes to tell).
	begun float64
	// shares are the statistics read, for the facets' shares.
	shares *lexemeShares
}

// matches is the estimate of a search's matches: those holding any term
// (any), or every term, at most the rows of its rarest term.
func (e termEstimates) matches(any bool) float64 {
	if any {
		return e.union
	}
	return slices.Min(e.terms)
}

// estimateTerms estimates the rows holding q's terms from the statistics
// (each word as any of its lexemes, the lexemes taken as independent, a
// lexeme not listed at the floor); ok is false when there are none.
func (s *Store) estimateTerms(ctx context.Context, q searchtext.Query) (e termEstimates, ok bool) {
	shares, lexemes, err := s.termLexemes(ctx, q)
	if shares == nil || err != nil {
		return e, false
	}
	e.shares = shares
	none, seen := 1.0, map[string]bool{}
	for _, t := range q.Terms {
		for _, w := range t.Words {
			for _, l := range lexemes[w] {
				if share, listed := shares.share[l]; listed {
					e.least = max(e.least, share*shares.rows)
				}
				if !seen[l] {
					seen[l] = true
					none *= 1 - shares.of(l)
				}
			}
		}
		e.terms = append(e.terms, shares.termShare(t, lexemes)*shares.rows)
		e.begun += shares.typedShare(t, lexemes) * shares.rows
	}
	e.union = (1 - none) * shares.rows
	return e, true
}

// narrowCap: a sorted search with q and a filter on a facet value whose
// matches the statistics put at no more than this reads them all through
// the text index (the words' and the values' postings intersected) and
// sorts them, rather than walking the sort index for them: a walk's length
// is the matches' density along the sort, which the planner cannot know
// (bundles of origin domain sort late by name and have no stars), while
// the intersection costs its own size.
const narrowCap = 2000

// narrowMatches reports whether a sorted search with p, whose q reads as
// q, has few matches by the statistics (narrowCap): those of q's words
// (every term: the rarest term's; any, their union) times the share of
// bundles passing its filters on facet values; without such a filter,
// whether its matches are few (fewMatches). False without statistics.
func (s *Store) narrowMatches(ctx context.Context, p SearchParams, q searchtext.Query, any bool) bool {
	// The filters first: a search without any asks nothing more, not even
	// the lexemes of a word not met before.
	groups := facetGroups(p)
	if len(q.Terms) == 0 {
		return false
	}
	if len(groups) == 0 {
		return s.fewMatches(ctx, q, any)
	}
	shares := s.lexemeShares(ctx)
	if shares == nil || len(shares.facets) == 0 {
		return false
	}
	e, ok := s.estimateTerms(ctx, q)
	if !ok {
		return false
	}
	return e.matches(any)*facetShare(groups, shares.facets) <= narrowCap
}

// fewMatches reports whether a search with q and no filter on facet
// values has at most narrowCap matches by the live bundles' shares (and
// those of the lexemes the word being typed begins): they are read through
// the text index and sorted, whatever the planner's statistics say. Those
// are of every row, hidden and low bundles too, and a word that example
// bundles hold, common there, is rare among the live ones (sampleShares):
// planned as common, its search walked a sort index for matches that were
// not there. False until the shares are sampled.
func (s *Store) fewMatches(ctx context.Context, q searchtext.Query, any bool) bool {
	e, ok := s.estimateTerms(ctx, q)
	return ok && e.shares.live && e.matches(any)+e.begun <= narrowCap
}

// rarestTerm returns 1 + the index in q.Terms of its term of fewest
// matches by the live bundles' shares, when they are at most narrowCap and
// fewer than another term's; 0 when there is none, q excludes words
// (its terms are then not all looked up), or the shares are not sampled.
func (s *Store) rarestTerm(ctx context.Context, q searchtext.Query) int {
	if len(q.Terms) < 2 || len(q.Excluded) > 0 {
		return 0
	}
	e, ok := s.estimateTerms(ctx, q)
	if !ok || !e.shares.live {
		return 0
	}
	i := slices.Index(e.terms, slices.Min(e.terms))
	if e.terms[i] > narrowCap || e.terms[i] == slices.Max(e.terms) {
		return 0
	}
	return i + 1
}

// facetShare is the share of bundles passing the filters on facet values
// groups (facetGroups) by the listed shares (a value not listed at half
// the least listed one), the filters taken as independent.
func facetShare(groups [][]string, listed map[string]float64) float64 {
	least := 1.0
	for _, f := range listed {
		least = min(least, f)
	}
	share := 1.0
	for _, g := range groups {
		sum := 0.0
		for _, lexeme := range g {
			f, in := listed[lexeme]
			if !in {
				f = least / 2
			}
			sum += f
		}
		share *= min(sum, 1)
	}
	return share
}

// deepFactor is what a row of a walk of the sort index costs against a
// match read through the text index: the walk decompresses each row's
// search vector to test it, the text index hands its matches over.
const deepFactor = 3

// deepMatches reports whether the page of a sorted search with p, whose q
// reads as q, lies so deep that reading every match through the text
// index and sorting them costs less than walking the sort index to it: a
// walk reads about (offset+limit)/share rows, the text index the matches;
// the first is dearer past matches² = deepFactor·(offset+limit)·rows.
// Offset 1,000 of a word in 3% of a million bundles walked ~36,700 rows
// (290 ms) for 30,000 matches. A page reached by a cursor seeks the sort
// index instead and reads what a first page reads; filters change the
// matches' density, which the statistics of words do not know, and are
// left to the walk (or to narrowMatches).
func (s *Store) deepMatches(ctx context.Context, p SearchParams, q searchtext.Query, any bool) bool {
	if p.Offset == 0 || p.After != "" || len(q.Terms) == 0 || p.filtered() {
		return false
	}
	e, ok := s.estimateTerms(ctx, q)
	if !ok {
		return false
	}
	rows := e.matches(any)
	limit := p.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	return rows*rows <= deepFactor*float64(p.Offset+limit)*e.shares.rows
}

// fullFactor: relevance leaves its partial tier out of a statement whose
// page ends where the bundles holding every term of q are estimated at
// fullFactor times that end or more (manyMatches).
const fullFactor = 10

// manyMatches reports whether the bundles holding every term of q (of
// several) are so many by the live bundles' shares (the terms taken as
// independent) that relevance's partial tier adds nothing to the page of
// p: the tier lists bundles only when fewer than the page's end hold every
// term. Its sources are then left out of the statement, where planning
// them was a third of its planning though they never ran (the figures are
// in docs/decisions.md). An estimate too high (words that exclude each
// other) costs a second statement: Search asks again with the tier when
// the page comes back short, which is exactly when the tier adds to it.
// Filters change the matches' share, a phrase or an excluded word their
// number, and a page past the window (restPage) or after a cursor has no
// partial tier: none of them is left to the estimate.
func (s *Store) manyMatches(ctx context.Context, p SearchParams, q searchtext.Query) bool {
	if len(q.Terms) < 2 || len(q.Excluded) > 0 || p.filtered() || p.After != "" || p.Offset >= restFrom ||
		slices.ContainsFunc(q.Terms, func(t searchtext.Term) bool { return t.Phrase }) {
		return false
	}
	e, ok := s.estimateTerms(ctx, q)
	if !ok || e.shares.rows <= 0 {
		return false
	}
	all := e.shares.rows
	for _, rows := range e.terms {
		all *= rows / e.shares.rows
	}
	return all >= fullFactor*float64(max(p.Offset, 0)+p.pageLimit())
}

// What reading relevance's newest head matches (h) costs either way, in
// microseconds, measured at 1M on this machine's two cores: a walk of the
// recency index tests its entries' facet values and then their head
// vectors (walkEntryCost an entry walked); a read through the head's text
// index with the facet values collects the postings of every head lexeme
// the word being typed begins (postingCost each, into a bitmap, where
// whole words skip through each other's lists) and reads each match's row
// (matchRowCost) to sort them. "guide" (in 1.9% of names and taglines)
// with version=1.0 (0.9% of bundles): the walk 37 ms for 183,000 entries,
// the read 16 ms for 18,530 postings and 199 matches. A walk's entry is
// taken at twice what it cost there: the shares take a word and a facet
// value as independent, and a walk is longer when they are not ("pandas"
// with origin=domain walked 82,000 entries where independence says
// 37,600), while a read costs what its matches cost.
const (
	walkEntryCost = 0.4
	postingCost   = 0.8
	matchRowCost  = 10
)

// narrowHead reports whether relevance's newest head matches of q with
// p's filters on facet values (and no repository or concept filter) are
// cheaper read through the head's text index with the values and sorted
// than found by walking the recency index, by the live bundles' sampled
// shares of name and tagline lexemes: a walk finds rankWindow of them
// after rankWindow/(share of head matches × share passing the filters)
// entries, a read costs the postings it collects and the matches it
// sorts, at most narrowCap. A filter that leaves few bundles makes a
// walk long whatever the word ("oauth" with type=reference walked 16,000
// entries of the type that hold no "oauth" in their heads).
func (s *Store) narrowHead(ctx context.Context, p SearchParams, q searchtext.Query) bool {
	groups := facetGroups(p)
	if len(groups) == 0 || p.Repo != "" || p.Concept != "" || len(q.Terms) == 0 || len(q.Excluded) > 0 {
		return false
	}
	shares, lexemes, err := s.termLexemes(ctx, q)
	if shares == nil || err != nil || !shares.live || len(shares.head.share) == 0 {
		return false
	}
	held, postings := 1.0, 0.0
	for _, t := range q.Terms {
		begun := shares.head.typed(t, lexemes) // the word being typed's postings, collected whole
		held *= max(shares.head.termShare(t, lexemes), begun)
		postings += begun * shares.rows
	}
	passing := held * facetShare(groups, shares.facets)
	if passing <= 0 {
		return true
	}
	matches := passing * shares.rows
	walk := walkEntryCost * rankWindow / passing
	read := postingCost*postings + matchRowCost*matches
	return matches <= narrowCap && read < walk
}
