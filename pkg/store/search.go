package store

// Search over the live bundles, and how each shape stays bounded: what each
// reads is said below in rows, which do not depend on the machine.
// BenchmarkQueries (bench_test.go, `make bench N=1000000`) measures each
// shape; its figures, and which shapes are dearest, are in docs/decisions.md.
//
// Every query reads live rows only, through partial indexes (WHERE visibility
// = 'live', repeated literally so the planner can use them), and pages with
// LIMIT/OFFSET over a total order (each sort ends in id), the offset capped
// at MaxOffset. Plans are made per call with the real values
// (plan_cache_mode=force_custom_plan on the read pool): which plan is cheap
// depends on how common a word or a filter value is, which the planner reads
// from statistics (10,000 most common lexemes per search vector; expression
// statistics for languages, licenses and concept bands).
//
//   - Sorts without q (recent, updated, name, stars) walk their own partial
//     B-tree and stop after offset+limit rows.
//   - Filters with a common value (origin, a frequent version, language,
//     band, license, type) are checked while walking the sort index, which
//     stops early; the sort indexes carry those facets after their keys
//     (migration 0031), so a filter of one value is tested on the index's
//     entry and only the rows that pass are read in the heap. A rare value
//     (a repository, a rare version or type) is read through its own
//     partial index and the few rows are sorted.
//     With q, a filter on a facet value (origin, version, language, type,
//     license, band) whose matches the statistics put at no more than
//     narrowCap is read with q's words in the text index (facetquery.go)
//     and the matches sorted: a walk's length is the matches' density
//     along the sort, which the planner cannot know (a rare language or
//     band walked 100-160 ms at 1M), while the intersection costs its own
//     size. More matches than that are walked, as before: a walk of the
//     recency order reads the heap in its physical order, the matches'
//     pages are scattered. So is q without such a filter whose matches
//     the live bundles' shares (termweight.go) put at no more than
//     narrowCap (fewMatches): the planner's statistics are of every row,
//     and a word that example bundles hold looks common to it.
//     The origin leads the key of the stars order's second index
//     (bundles_live_origin_stars, migration 0022): bundles of origin domain
//     have no stars and come after every starred bundle, so a walk of
//     bundles_live_stars for them passed every code host bundle first.
//     BenchmarkFilterSort (bench_pairs_test.go) measures every filter with
//     every sort.
//   - q is read by searchtext.ParseQuery into terms (textquery.go): each a
//     word as written or stemmed (in English and in the query's language),
//     the typed last word also a prefix of name and tagline words, a phrase
//     for quoted words, compounds and CJK runs; stop words left out. They
//     are matched on the weighted vector of migration 0018 (name and
//     origin identifier A, tagline B, description C, concept names and
//     summaries D; every field stemmed in the bundle's language and in
//     English, names and taglines also as written).
//   - The word being typed begins name and tagline words only; a search
//     that finds nothing so is asked again with it beginning any word,
//     descriptions and concepts too (widens: 3 letters or more; its
//     matches read in the text index, at most wideCap when sorted).
//   - q with a sort: every term, in the sort's order; when no bundle holds
//     every term (q of several terms), any of them, in the same order (words
//     are optional; the first page says so by coming back empty, a later
//     one asks whether any bundle holds them all; when the terms are rare
//     by the statistics, rareTerms, every match of any is read and sorted,
//     at most ~1% of bundles, since the planner overestimates a disjunction
//     of rare words and would walk the index). A common word walks the sort index and checks @@ on
//     each row, about (offset+limit)/frequency rows (a 30% word: ~80 rows); a
//     rare word reads the GIN index (bundles_live_search) and sorts its
//     matches. The dearest words are those in between (~0.5-3%), and two-word
//     queries whose words are common but rarely together: a few thousand rows
//     either way at the first page. The concept filter is
//     the same machinery: a phrase of word prefixes restricted to weights C
//     and D, on the same vector and index.
//   - Relevance (only with q: the API orders relevance without q as recent,
//     and Search refuses it). Ranking every match of a common word takes
//     seconds, so relevance has three tiers (see relevance and the weights
//     beside rankWindow): the exact tier (q equal, normalised, to a name,
//     owner/repo, repository name or id that at most exactCap bundles
//     share: at most exactCap+1 reads of bundles_live_exact), then a ranked
//     window whose candidates come from recency and popularity alike (the
//     rankWindow newest matches in the name, identifier or tagline, and the
//     most starred matches among the starWalk most starred bundles; for a
//     rare word, or when fewer than starWalk bundles pass the filters, the
//     best scored of every match), scored by ts_rank_cd (weighted cover density;
//     ts_rank scores every bundle 1e-20 when q excludes a word) times ln(e +
//     stars); then the other matches, newest first. The order is fixed
//     whatever the page, so paging neither repeats nor skips. Every source
//     is bounded: the head source is an index-only scan of
//     bundles_live_recent (which carries search_head) or a read of its GIN
//     index, the starred source walks at most starWalk rows of
//     bundles_live_stars (and reads the GIN index only for a rare q), and
//     the rest is read only as far as the page needs past the window:
//     not at all on a first page the window fills, offset+limit-|window|
//     rows on a deeper one. Those three tiers hold the bundles holding every
//     term; a fourth, the partial tier (partialTier), follows them within
//     the first partialEnd places when they are fewer: bundles holding some
//     terms, most terms first, from bounded sources like the window's.
//     When the live shares put the bundles holding every term at many
//     (manyMatches), the statement leaves the partial tier out (planning
//     its sources was a third of a two-word statement's planning), and a
//     page that comes back short is asked again with it.
//   - Deep pages through offset cost what they count: offset 1000 over a
//     word in ~3% of bundles walks ~36,700 rows of the sort index, or reads
//     its ~30,000 matches through the text index and sorts them, which
//     costs less per row (no vector to decompress and test): a sorted page,
//     and relevance's rest tier past its window, is read so when the
//     statistics say it is the cheaper (deepMatches).
//     The API's next link carries a cursor (cursor.go): the page after it
//     seeks the sort index past the last bundle and reads what a first
//     page reads. Relevance's rest tier seeks the same way: the page
//     after a rest cursor recomputes the window's sources (not the newest
//     matches, which all come before any bundle of the rest) and reads the
//     matches past the cursor that are not in it, limit of them; its first
//     two tiers end within the first pages and are reached by offset.
//   - A mid-frequency query whose rows are not in shared buffers yet pays
//     reading them from the OS cache the first time, several times what it
//     pays once they are.
//
// A query whose words exclude each other ("the -the") must check every
// bundle that holds the positive words; the read timeout
// (Config.ReadTimeout) stops such a statement, and Search returns
// ErrSearchTimeout.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Page limits of Search (contract 8).
const (
	DefaultLimit = 24
	MaxLimit     = 100
	// MaxOffset is the last offset that returns bundles: the list ends at
	// 1000, and Search returns nothing past it.
	MaxOffset = 1000
)

// Search returns live bundles matching p, at most p.Limit. p is taken as
// SearchParams documents it (the API's parseSearch makes it so): Search
// does not trim, lowercase or alias its values.
//
// Limit is clamped to 1..MaxLimit+1 (0 means DefaultLimit): a page is at
// most MaxLimit bundles, and the one more lets a caller learn in the same
// query whether another page follows. An offset past
// MaxOffset returns no bundles. Filters are ANDed; values within a list filter
// are ORed. Languages and licenses match case-insensitively. Concept
// matches the root content (the description, which is the first 1000
// characters of the body, and the listed concepts' names and summaries): its
// words, in order and adjacent, each the start of a word there, so "event
// sour" finds "Event Sourcing".
func (s *Store) Search(ctx context.Context, p SearchParams) ([]Bundle, error) {
	// q is read once: the statements, the fallback and the snippets use
	// it. The statements look up its terms less those too common in the
	// index to tell bundles apart (weigh).
	var asked, q searchtext.Query
	if p.Q != "" {
		if asked = searchtext.ParseQuery(p.Q); excludesItself(asked) {
			return nil, ErrQueryExcludesItself
		}
		q = s.weigh(ctx, asked)
	}
	folded := s.foldTerms(ctx, p.Q, q)
	out, err := s.find(ctx, p, q, folded, false)
	if err == nil && len(out) == 0 && widens(q) {
		var none bool
		if none, err = s.matchesNone(ctx, p, q, folded); none {
			out, err = s.find(ctx, p, q, folded, true)
			for i := range out {
				out[i].Partial = true // q's word is only begun: did you mean still helps
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if cmp.Or(p.Sort, wire.SortRecent) == wire.SortRelevance {
		keepPartialTier(p, out)
	}
	if p.Q != "" {
		addSnippets(asked, out)
	}
	return out, nil
}

// find runs the search of p, whose q reads as q, and, when it is sorted
// and finds nothing, the search for any of q's terms (words are optional).
// wide lets the word being typed begin any word of a bundle (widens).
// folded are the values of q's text query calls (foldTerms).
func (s *Store) find(ctx context.Context, p SearchParams, q searchtext.Query, folded map[termCall]string, wide bool) ([]Bundle, error) {
	sort := cmp.Or(p.Sort, wire.SortRecent)
	m := s.matchOf(ctx, p, q, wide)
	out, err := s.search(ctx, p, q, m, folded)
	if err == nil && m.many && len(out) < p.pageLimit() {
		// Relevance left its partial tier out, and the bundles holding
		// every term did not fill the page: the tier adds to it.
		m.many = false
		out, err = s.search(ctx, p, q, m, folded)
	}
	if err != nil || len(out) > 0 || sort == wire.SortRelevance || p.Q == "" {
		return out, err
	}
	// Words are optional: a sorted search that no bundle matches with
	// every word lists those holding some of them, in the same order.
	// Whether any bundle holds them all is asked again only past the first
	// page, where an empty page may just be the list's end.
	relax, err := s.relaxes(ctx, p, q, folded, wide)
	if !relax {
		return out, err
	}
	m = termMatch{any: true, wide: wide}
	if !wide {
		m.rare, m.narrow, m.deep = s.rareTerms(ctx, q), s.narrowMatches(ctx, p, q, true), s.deepMatches(ctx, p, q, true)
	}
	if out, err = s.search(ctx, p, q, m, folded); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Partial = true
	}
	return out, nil
}

// matchOf is how the first search of p, whose q reads as q, reads q's
// matches, as the live shares estimate them (estimates.go).
func (s *Store) matchOf(ctx context.Context, p SearchParams, q searchtext.Query, wide bool) termMatch {
	m := termMatch{wide: wide}
	// The statistics know no prefix: a wide lookup leaves the plan to the
	// planner, which reads a prefix's frequency in them (a common prefix
	// read whole and sorted, as rare terms are, would be every bundle
	// holding a word it begins).
	if wide {
		return m
	}
	relevance := p.Sort == wire.SortRelevance
	if relevance && len(q.Terms) > 1 {
		m.rare = s.rareTerms(ctx, q) // for its partial tier
		m.few = s.fewMatches(ctx, q, false)
		m.rarest = s.rarestTerm(ctx, q)
		m.many = s.manyMatches(ctx, p, q)
	}
	if !relevance || len(q.Terms) == 1 {
		m.narrow = s.narrowMatches(ctx, p, q, false)
	}
	if relevance && !m.narrow {
		m.narrowHead = s.narrowHead(ctx, p, q)
	}
	m.deep = s.deepMatches(ctx, p, q, false) // relevance's rest tier too
	return m
}

// pageLimit is the bundles a page of p lists at most: p.Limit, 0 meaning
// DefaultLimit, clamped to MaxLimit+1 (the one more tells the caller
// whether another page follows).
func (p SearchParams) pageLimit() int {
	if p.Limit <= 0 {
		return DefaultLimit
	}
	return min(p.Limit, MaxLimit+1)
}

// widens reports whether a search of q that finds nothing is asked again
// with the word being typed beginning any word of a bundle, its description
// and concepts too ("seism" finds a concept "Seismic Imaging", "afp" a
// concept "afpd"). The first lookup keeps the prefix to names and taglines,
// where a short prefix is cheap ("torlo" began words in a quarter of a
// million descriptions at 1M); a search that found nothing has no name or
// tagline word so begun, and the fallback asks a prefix of minWidePrefix
// letters or more.
func widens(q searchtext.Query) bool {
	for _, t := range q.Terms {
		if t.Prefix && !t.Phrase && utf8.RuneCountInString(t.Words[0]) >= minWidePrefix {
			return true
		}
	}
	return false
}

// minWidePrefix is the fewest letters of a word being typed that widens
// asks of every word of a bundle.
const minWidePrefix = 3

// addSnippets gives each bundle of a page the passage that says why q
// found it (searchtext.Snippet): computed for the page's rows only, in Go,
// from the fields the page holds anyway.
func addSnippets(q searchtext.Query, page []Bundle) {
	for i := range page {
		c := &page[i].Card
		// The fields in order, the first holding q giving the passage; the
		// description and concepts, dearer to prepare, only when the name
		// and tagline do not.
		p, ok := searchtext.Snippet(q, []searchtext.Field{{Name: "name", Text: c.Name}, {Name: "tagline", Text: c.Tagline}})
		if !ok {
			p, ok = searchtext.Snippet(q, []searchtext.Field{{Name: "description", Text: searchtext.PlainMarkdown(c.Description)},
				{Name: "concepts", Text: conceptsText(c.ConceptList)}})
		}
		if ok {
			c.Snippet = &wire.Snippet{Field: p.Field, Text: p.Text, Highlights: p.Marks}
		}
	}
}

// conceptsText is the concepts field of a snippet: "name: summary; ...".
func conceptsText(list wire.ConceptList) string {
	var b strings.Builder
	for k, e := range list {
		if k > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Name)
		if e.Summary != "" {
			b.WriteString(": " + e.Summary)
		}
	}
	return b.String()
}

// search runs the statement of p, whose q reads as q, listing the bundles
// m says: those holding every term of q, or any.
func (s *Store) search(ctx context.Context, p SearchParams, q searchtext.Query, m termMatch, folded map[termCall]string) ([]Bundle, error) {
	sql, args, err := searchSQL(p, q, m, folded)
	if err != nil || sql == "" {
		return []Bundle{}, err
	}
	sort := cmp.Or(p.Sort, wire.SortRecent)
	rows, err := s.read.Query(ctx, sql, args...)
	var out []Bundle
	if err == nil {
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Bundle, error) {
			var tier int
			var stars *int
			b, err := scanBundle(r, &tier, &stars)
			b.Cursor = cursorOf(sort, b, tier, stars)
			b.Partial = sort == wire.SortRelevance && tier == partialTier
			return b, err
		})
	}
	if stoppedByReadTimeout(ctx, err) {
		return nil, ErrSearchTimeout
	}
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	if out == nil {
		out = []Bundle{}
	}
	return out, nil
}

// relaxes reports whether a sorted search with q whose page came back empty
// should list the bundles holding some of q's terms: q has more than one
// term and no bundle (after the filters) holds them all.
func (s *Store) relaxes(ctx context.Context, p SearchParams, q searchtext.Query, folded map[termCall]string, wide bool) (bool, error) {
	b := &sqlBuilder{widePrefix: wide, folded: folded}
	tq, ok := b.textQuery(p.Q, q)
	if !ok || len(tq.terms) < 2 {
		return false, nil
	}
	if p.Offset == 0 && p.After == "" {
		return true, nil // the first page is empty: nothing holds them all
	}
	any, err := s.anyBundle(ctx, b, b.filters(p)+` AND search @@ `+tq.all)
	return !any, err
}

// anyBundle reports whether a bundle passes where, whose arguments b holds.
func (s *Store) anyBundle(ctx context.Context, b *sqlBuilder, where string) (bool, error) {
	var any bool
	err := s.read.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bundles WHERE `+where+`)`, b.args...).Scan(&any)
	if stoppedByReadTimeout(ctx, err) {
		return false, ErrSearchTimeout
	}
	if err != nil {
		return false, fmt.Errorf("store: search: %w", err)
	}
	return any, nil
}

// matchesNone reports whether no bundle passing p's filters holds any of
// q's terms as a search first looks them up (a q of one word: the word),
// so that the search of p may widen. A first page that came back empty
// says so; a later one may just be past the list's end, and is asked.
func (s *Store) matchesNone(ctx context.Context, p SearchParams, q searchtext.Query, folded map[termCall]string) (bool, error) {
	if p.Offset == 0 && p.After == "" {
		return true, nil
	}
	b := &sqlBuilder{folded: folded}
	tq, ok := b.textQuery(p.Q, q)
	if !ok {
		return false, nil
	}
	any, err := s.anyBundle(ctx, b, b.filters(p)+` AND `+tq.holdsSome(""))
	return !any, err
}

// keepPartialTier drops the cursors that would lead past relevance's
// partial tier: that tier follows the rest within the first partialEnd
// places only, and a page reached by a rest cursor is read from the rest
// alone, so the pages before partialEnd are reached by offset.
func keepPartialTier(p SearchParams, out []Bundle) {
	for i := range out {
		if p.After == "" && p.Offset+i+1 < partialEnd {
			out[i].Cursor = ""
		}
	}
}

// stoppedByReadTimeout reports whether err is a statement canceled by the
// read pool's statement_timeout (query_canceled while the caller still
// waits), not by the caller going away.
func stoppedByReadTimeout(ctx context.Context, err error) bool {
	pgErr := (*pgconn.PgError)(nil)
	return errors.As(err, &pgErr) && pgErr.Code == "57014" && ctx.Err() == nil
}
