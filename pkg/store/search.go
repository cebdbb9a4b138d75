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
//     stops early; a rare value (a repository, a rare version or type) is
//     read through its own partial index and the few rows are sorted.
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
//   - q with a sort: every term, in the sort's order; when no bundle holds
//     every term (q of several terms), any of them, in the same order (words
//     are optional; the first page says so by coming back empty, a later
//     one asks whether any bundle holds them all). A common word walks the sort index and checks @@ on
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
//   - Deep pages through offset cost what they count: offset 1000 over a
//     word in ~3% of bundles reads ~35,000 rows whichever way. The API's next link carries a cursor (cursor.go): the page
//     after it seeks the sort index past the last bundle and reads what a
//     first page reads. Relevance's rest tier seeks the same way: the page
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
	"slices"
	"strconv"
	"strings"

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

// Relevance weights, in one place (see relevance):
//
//   - rankWindow is how many candidates each source of the ranked window
//     gives: the newest matches in the name, identifier or tagline (h), and
//     the most starred matches anywhere (p). Recency alone made relevance
//     "newest first" on a common word at a million bundles; the starred
//     source puts the bundles people use in the window whatever their age.
//     The newest matches anywhere are no source of the window: they are the
//     rest tier, which follows the window newest first (as a source they
//     were description mentions of few stars, ranked last in the window
//     anyway, and reading them cost a two-word query ~6,000 rows a page).
//   - starWalk bounds the starred source: p is the matches among the
//     starWalk most starred bundles, at most rankWindow, which are exactly
//     the most starred matches when a word is in more than ~3% of bundles
//     (rankWindow of them within the walk). A rarer q finds fewer there,
//     and walking on until rankWindow were found cost a two-word query
//     (~0.5% of bundles) ~6,600 rows. When the walk finds
//     no match at all (more than rareWalk), q is rare: p reads its matches
//     through the GIN index, and when they are at most exactCap, p is the
//     best scored of all of them (a rare word is ranked entirely). So it is
//     when fewer than starWalk bundles pass the filters (a small index, a
//     narrow filter): the walk then saw every bundle, and the most starred
//     matches would leave out a tagline match of no stars that more
//     starred bundles mention. Reading the GIN index first would cost a
//     common word's posting list every time (thousands of postings for
//     names whose words are common); knowing whether fewer than starWalk
//     bundles pass the filters costs at most starWalk index entries.
//   - rankWeights are ts_rank_cd's weights of D (concepts), C
//     (description), B (tagline) and A (name, identifier). A name match
//     counts forty description mentions and a tagline match twelve
//     (Postgres's defaults make them five and two): multiplied by
//     popularity, five let any bundle of ~150 stars that mentions a word
//     once outrank the bundle named by it, and with a tagline worth six
//     mentions, bundles of ~400 stars mentioning a CJK phrase passed the
//     one whose tagline holds it; the judged set (judged_test.go) counts
//     both as misses.
//   - popularity multiplies the text rank by ln(e + stars), as pkgsite
//     multiplies by ln(e + importers): 1 for no stars, ~3.9 for 50, ~6.9
//     for 1,000, ~11.5 for 100,000. It orders bundles of like text rank by
//     use; across kinds of match, a tagline match passes a name match from
//     ~25 stars up, a description mention passes neither.
//   - The exact tier (q equal to a name, owner/repo, repository name or id,
//     as okf_name_key normalises them; migration 0012) comes before all of
//     it, most starred first, at most rankWindow bundles, when at most
//     exactCap live bundles (after the filters) hold the key. A name more
//     bundles share ("The" names ~20,000 of a million synthetic bundles,
//     "Api" ~2,800) picks out no bundle; q then ranks as words, the bundles
//     named by it among the first through their name matches. Ordering all
//     of them by stars read every one of them (~20,000 heap pages for
//     "The"); exactCap+1 reads of bundles_live_exact are bounded whatever
//     the name.
const (
	exactCap    = 256
	starWalk    = 1000
	rareWalk    = 0
	rankWindow  = 32
	rankWeights = `'{0.01, 0.025, 0.3, 1.0}'`
	popularity  = `ln(exp(1.0) + coalesce(%s.repo_stars, 0))`
)

// The tiers of relevance, in order.
const (
	exactTier   = 0 // q is the bundle's name, repository or id
	rankedTier  = 1 // the ranked window
	restTier    = 2 // every other match, newest first
	partialTier = 3 // bundles holding some of q's terms, most terms first
)

// The partial tier's bounds: it fills the list up to partialEnd places
// (a page ending later reads the full matches alone), from at most
// partialWalk newest matches of any term and, for a q of three terms or
// more, partialAllButOne newest matches of all terms but one for each
// term, besides the window's sources.
const (
	partialEnd       = 3 * rankWindow
	partialWalk      = 64
	partialAllButOne = 32
)

// sortOrders are the ORDER BY clauses of the sorts, each matching its index.
var sortOrders = map[wire.Sort]string{
	wire.SortRecent:  `indexed_at DESC, id`,
	wire.SortUpdated: `updated_at DESC, id`,
	wire.SortName:    `lower(name) COLLATE "C", id`,
	wire.SortStars:   `repo_stars DESC NULLS LAST, id`,
}

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
	sort := cmp.Or(p.Sort, wire.SortRecent)
	out, err := s.search(ctx, p, q, false)
	if err == nil && len(out) == 0 && sort != wire.SortRelevance && p.Q != "" {
		// Words are optional: a sorted search that no bundle matches with
		// every word lists those holding some of them, in the same order.
		// Whether any bundle holds them all is asked again only past the
		// first page, where an empty page may just be the list's end.
		var relax bool
		if relax, err = s.relaxes(ctx, p, q); relax {
			out, err = s.search(ctx, p, q, true)
			for i := range out {
				out[i].Partial = true
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if sort == wire.SortRelevance {
		keepPartialTier(p, out)
	}
	if p.Q != "" {
		addSnippets(asked, out)
	}
	return out, nil
}

// addSnippets gives each bundle of a page the passage that says why q
// found it (searchtext.Snippet): computed for the page's rows only, in Go,
// from the fields the page holds anyway.
func addSnippets(q searchtext.Query, page []Bundle) {
	for i := range page {
		c := &page[i].Card
		var concepts strings.Builder
		for k, e := range c.ConceptList {
			if k > 0 {
				concepts.WriteString("; ")
			}
			concepts.WriteString(e.Name)
			if e.Summary != "" {
				concepts.WriteString(": " + e.Summary)
			}
		}
		p, ok := searchtext.Snippet(q, []searchtext.Field{{Name: "name", Text: c.Name},
			{Name: "tagline", Text: c.Tagline}, {Name: "description", Text: searchtext.PlainMarkdown(c.Description)},
			{Name: "concepts", Text: concepts.String()}})
		if ok {
			c.Snippet = &wire.Snippet{Field: p.Field, Text: p.Text, Highlights: p.Marks}
		}
	}
}

// search runs the statement of p, whose q reads as q; with some, q matches
// bundles holding any of its terms instead of all of them.
func (s *Store) search(ctx context.Context, p SearchParams, q searchtext.Query, some bool) ([]Bundle, error) {
	sql, args, err := searchSQL(p, q, some)
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
func (s *Store) relaxes(ctx context.Context, p SearchParams, q searchtext.Query) (bool, error) {
	b := &sqlBuilder{}
	tq, ok := b.textQuery(p.Q, q)
	if !ok || len(tq.terms) < 2 {
		return false, nil
	}
	if p.Offset == 0 && p.After == "" {
		return true, nil // the first page is empty: nothing holds them all
	}
	var any bool
	err := s.read.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bundles WHERE `+b.filters(p)+
		` AND search @@ `+tq.all+`)`, b.args...).Scan(&any)
	if stoppedByReadTimeout(ctx, err) {
		return false, ErrSearchTimeout
	}
	if err != nil {
		return false, fmt.Errorf("store: search: %w", err)
	}
	return !any, nil
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

// searchSQL is the statement of a search and its arguments; "" when the
// search returns nothing without asking the database. Its rows are
// bundleColumns, then the relevance tier and repo_stars (for the cursor).
func searchSQL(p SearchParams, parsed searchtext.Query, some bool) (string, []any, error) {
	limit, offset := p.Limit, p.Offset
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit+1)
	offset = max(offset, 0)
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
	b := &sqlBuilder{}
	var tq textQuery
	if q != "" {
		var ok bool
		if tq, ok = b.textQuery(q, parsed); !ok {
			return "", nil, nil // nothing to look for
		}
	}
	filters := b.filters(p)
	after := ""
	if p.After != "" {
		k, err := decodeCursor(p.After, sort)
		if err != nil {
			return "", nil, err
		}
		after, offset = b.after(k), 0
	}
	if sort == wire.SortRelevance {
		return b.relevance(tq, filters, limit, offset, after), b.args, nil
	}
	where := filters
	switch {
	case q == "":
	case some:
		where += ` AND search @@ ` + tq.some
	case len(tq.terms) == 1:
		// One word, perhaps being typed: its prefix meets names and
		// taglines (search as you type).
		where += ` AND ` + tq.holdsAll("")
	default:
		where += ` AND search @@ ` + tq.all
	}
	if after != "" {
		where += ` AND ` + after
	}
	return `SELECT ` + bundleColumns + `, 0, repo_stars FROM bundles WHERE ` + where +
		` ORDER BY ` + sortOrders[sort] +
		` LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset), b.args, nil
}

// sqlBuilder collects the arguments of a search statement.
type sqlBuilder struct {
	args []any
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
		w = append(w, `okf_version = ANY(`+b.arg(p.Versions)+`)`)
	}
	if len(p.Languages) > 0 {
		w = append(w, `lower(repo_language) = ANY(`+b.arg(lowerAll(p.Languages))+`)`)
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
		w = append(w, `okf_concepts_band(concepts) = ANY(`+b.arg(p.ConceptBands)+`)`)
	}
	if len(p.Types) > 0 {
		w = append(w, `type = ANY(`+b.arg(p.Types)+`)`)
	}
	if len(p.Licenses) > 0 {
		w = append(w, `lower(repo_license) = ANY(`+b.arg(lowerAll(p.Licenses))+`)`)
	}
	return strings.Join(w, " AND ")
}

// relevance is the ranked search described at the top of this file, in
// three tiers (exactTier, rankedTier, restTier) of the bundles holding
// every term of q, and the partial tier (partialTier) after them:
//
//   - e: the exact tier, the most starred bundles whose okf_exact_keys hold
//     okf_name_key(q), a look-alike of an earlier bundle's name
//     (look_alike_of) after every other whatever its stars (invented stars
//     never put an impostor first), at most rankWindow, when at most exactCap bundles
//     hold it (see exactCap). e0 reads at most exactCap+1 of them through
//     bundles_live_exact, in the index's order, and stops there.
//   - w: the ranked window, the union of rankWindow bundles from each of h
//     (newest head matches) and p (most starred matches), less e; scored by
//     ts_rank_cd with rankWeights times popularity. p is pw, the matches
//     among the starWalk most starred bundles (sw: the walk, which keeps
//     the bundles holding any term for the partial tier), or, when pw found
//     at most rareWalk or fewer than starWalk bundles pass the filters, pr:
//     the rankWindow best scored of p0, every match read through the GIN
//     index if there are at most exactCap (p0 is read only then; its LIMIT
//     stops the read of a commoner q).
//   - the rest, newest first: a, the newest matches, less e and w.
//   - the partial tier (partialTier): bundles holding some terms.
//
// The order is (tier, score DESC, indexed_at DESC, id), total and fixed
// whatever the page. a needs offset+limit rows: the k-th match of the rest
// lies at most |e|+|w| places further in a than k, and the page needs k <=
// offset+limit-|e|-|w|; the rest pulls that many from a, so a page that e
// and w fill does not read a at all (a LIMIT of 0 never starts the walk),
// and a page past them does not score them (past 3*rankWindow, restPage
// leaves them out of the statement). With a cursor of the rest tier
// (after), the page is the rest from the cursor on, the matches past it
// that are in neither e nor w, limit of them: no offset, no a, no scoring.
func (b *sqlBuilder) relevance(tq textQuery, filters string, limit, offset int, after string) string {
	win := strconv.Itoa(rankWindow)
	// A head match is a match unless q excludes a word ("-word") that the
	// rest of the bundle holds (headHolds).
	head := tq.headHolds(tq.allTyped)
	// The sources read through an index ask the whole vector for the words
	// as written; the typed word's prefix is met by h (the head) and by the
	// starred walk, which checks each row it reads.
	match := filters + ` AND search @@ ` + tq.all
	exact := `okf_exact_keys(name, repo, id) @> ARRAY[okf_name_key(` + b.arg(tq.key) + `)]`
	// near: the bundle is in the folder a pasted link points at, which
	// comes first among the bundles of its repository.
	near := `false`
	if tq.dir != "" {
		near = `dir = ` + b.arg(tq.dir)
	}
	byStars := ` ORDER BY repo_stars DESC NULLS LAST, id LIMIT ` + win
	// The window's score of the bundles row x.
	score := `ts_rank_cd(` + rankWeights + `, x.search, ` + tq.allTyped + `) * ` + fmt.Sprintf(popularity, "x")
	// The window: e (e0 is read through bundles_live_exact: its LIMIT without
	// an order lets no plan walk a sort index computing the keys of every
	// bundle, every live bundle's when no name matches), h, p and w.
	window := `
WITH e0 AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, ` + near + ` AS near, look_alike_of IS NOT NULL AS look_alike
	FROM bundles WHERE ` + filters + ` AND ` + exact + `
	LIMIT ` + strconv.Itoa(exactCap+1) + `
), e AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, near, look_alike FROM e0
	WHERE (SELECT count(*) FROM e0) <= ` + strconv.Itoa(exactCap) + `
	ORDER BY near DESC, look_alike, repo_stars DESC NULLS LAST, id LIMIT ` + win + `
), h AS MATERIALIZED (
	SELECT id, indexed_at FROM bundles WHERE ` + filters + ` AND ` + head + `
	ORDER BY indexed_at DESC, id LIMIT ` + win + `
), sw AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, ` + tq.holdsAll("") + ` AS holds_all FROM (
		SELECT id, repo_stars, indexed_at, search, search_head FROM bundles WHERE ` + filters + `
		ORDER BY repo_stars DESC NULLS LAST, id LIMIT ` + strconv.Itoa(starWalk) + `) AS s
	WHERE ` + tq.holdsSome("") + `
), pw AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at FROM sw WHERE holds_all` + byStars + `
), p0 AS MATERIALIZED (
	SELECT id FROM bundles WHERE ` + match + ` AND ((SELECT count(*) FROM pw) <= ` + strconv.Itoa(rareWalk) + `
		OR (SELECT count(*) FROM (SELECT 1 FROM bundles WHERE ` + filters + ` LIMIT ` + strconv.Itoa(starWalk) + `) AS n) < ` + strconv.Itoa(starWalk) + `)
	LIMIT ` + strconv.Itoa(exactCap+1) + `
), pr AS MATERIALIZED (
	SELECT x.id, x.indexed_at FROM p0 JOIN bundles AS x USING (id)
	WHERE (SELECT count(*) FROM p0) <= ` + strconv.Itoa(exactCap) + `
	ORDER BY ` + score + ` DESC, x.id LIMIT ` + win + `
), p AS MATERIALIZED (
	SELECT id, indexed_at FROM pw WHERE (SELECT count(*) FROM pr) = 0
	UNION
	SELECT id, indexed_at FROM pr
), w AS MATERIALIZED (
	SELECT id, indexed_at FROM h UNION SELECT id, indexed_at FROM p
	EXCEPT SELECT id, indexed_at FROM e
)`
	// The rest is the newest matches less e and w, read by a walk (or a
	// sort) that its outer LIMIT stops: the inner LIMIT, a constant, is
	// what the planner plans for (an unknown one reads as 10% of the
	// matches and makes a bitmap read of all of them). The window is left
	// out of the walk's output, not in the walk itself, by its times before
	// its ids: a bundle's id is stored out of line (the row's search vector,
	// kept in the row, leaves the toaster no room), and reading it costs ~4
	// shared buffers (the TOAST index and table), where its time is in the
	// row. A NOT IN of the window's ids read 10,200 buffers instead of 2,300
	// for ~2,000 rows; a deep page would read the id of every row it skips.
	notRanked := `(s.indexed_at <> ALL (ARRAY(SELECT indexed_at FROM w UNION ALL SELECT indexed_at FROM e))
		OR s.id <> ALL (ARRAY(SELECT id FROM w UNION ALL SELECT id FROM e)))`
	ranked := `((SELECT count(*) FROM e) + (SELECT count(*) FROM w))`
	// restPage is the page of the rest alone: from a cursor (the matches
	// past it), or at an offset past any window (e, h and p hold at most
	// rankWindow each), where neither e nor w is scored.
	restPage := func(where string, n int, off string) string {
		return window + `
SELECT ` + qualified("b", bundleColumns) + `, ` + strconv.Itoa(restTier) + `, b.repo_stars FROM (
	SELECT id, indexed_at FROM (
		SELECT id, indexed_at FROM bundles WHERE ` + where + `
		ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(n) + `) AS s
	WHERE ` + notRanked + `
	LIMIT ` + strconv.Itoa(limit) + off + `
) AS page JOIN bundles AS b USING (id)
ORDER BY page.indexed_at DESC, page.id`
	}
	if after != "" {
		return restPage(match+` AND `+after, limit+3*rankWindow, ``)
	}
	if offset >= 3*rankWindow {
		return restPage(match, offset+limit, ` OFFSET `+strconv.Itoa(offset)+` - `+ranked)
	}
	end := offset + limit
	// A page past e and w leaves them out of ordered, and its offset is
	// counted from the start of the rest.
	scored := ranked + ` > ` + strconv.Itoa(offset)
	off := strconv.Itoa(offset) + ` - (CASE WHEN ` + scored + ` THEN 0 ELSE ` + ranked + ` END)`
	partial := ``
	if len(tq.terms) > 1 {
		partial = b.partialTier(tq, filters, end, ranked)
	}
	// a is planned as it stands (a walk of bundles_live_recent for a common
	// q, a read of the GIN index and a sort for a rarer one): a LIMIT over
	// it that the planner cannot read would make it plan for a few rows and
	// walk 15,000 rows for a q in 0.1% of bundles. A materialized CTE is
	// read as far as it is pulled: the rest's LIMIT pulls the rows the page
	// needs past the window, none when the window fills it.
	return window + `, a AS MATERIALIZED (
	SELECT id, indexed_at FROM bundles WHERE ` + match + `
	ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(end) + `
), ordered AS (
	SELECT id, ` + strconv.Itoa(exactTier) + ` AS tier, e.near::int * 1e6 - e.look_alike::int * 1e3 + ` + fmt.Sprintf(popularity, "e") + ` AS score, indexed_at
	FROM e WHERE ` + scored + `
	UNION ALL
	SELECT x.id, ` + strconv.Itoa(rankedTier) + `, ` + score + `, x.indexed_at
	FROM w JOIN bundles AS x USING (id) WHERE ` + scored + `
	UNION ALL
	SELECT id, ` + strconv.Itoa(restTier) + `, 0, indexed_at FROM (
		SELECT id, indexed_at FROM a AS s WHERE ` + notRanked + `
		LIMIT greatest(` + strconv.Itoa(end) + ` - ` + ranked + `, 0)) AS r` + partial + `
), page AS (
	SELECT id, tier, score, indexed_at FROM ordered
	ORDER BY tier, score DESC, indexed_at DESC, id
	LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + off + `
)
SELECT ` + qualified("b", bundleColumns) + `, page.tier, b.repo_stars
FROM page JOIN bundles AS b USING (id)
ORDER BY page.tier, page.score DESC, page.indexed_at DESC, page.id`
}

// partialTier is the part of relevance's ordered list that follows the
// bundles holding every term of q: bundles holding some of them, which
// partialEnd bounds. It is read only when q names no bundle (the exact tier
// is empty) and fewer than end bundles hold every term (the window's count
// is asked first: it is known, and when it reaches end, a, the newest full
// matches, is not read for the count). Its
// candidates come from the same kinds of source as the window, each
// bounded: the newest name and tagline matches of any term, the matches
// among the starWalk most starred bundles, the partialWalk newest
// matches anywhere, and, for a q of three terms or more, the
// partialAllButOne newest holding all of them but one, for each (what a
// question or a word too many is best answered by, and what the newest
// matches of any term miss among a million bundles); they are ordered by how many of q's terms they hold,
// then by the window's score.
func (b *sqlBuilder) partialTier(tq textQuery, filters string, end int, ranked string) string {
	// A q that names a bundle (the exact tier found one: a name, a pasted
	// repository) asked for it, not for bundles holding a few of its words.
	needed := `(SELECT count(*) FROM e) = 0 AND ` + ranked + ` < ` + strconv.Itoa(end) +
		` AND (SELECT count(*) FROM a) < ` + strconv.Itoa(end)
	head := tq.headHolds(tq.someTyped)
	var held []string
	for i := range tq.terms {
		held = append(held, `(`+tq.holdsTerm("y.", i)+`)::int`)
	}
	// The score: the number of terms held, then the window's score folded
	// into [0, 1) so that it only orders bundles holding as many.
	rank := `ts_rank_cd(` + rankWeights + `, y.search, ` + tq.someTyped + `) * ` + fmt.Sprintf(popularity, "y")
	score := `(` + strings.Join(held, ` + `) + `) + ` + rank + ` / (1 + ` + rank + `)`
	win := strconv.Itoa(rankWindow)
	allButOne := ``
	for i, q := range tq.allButOne {
		allButOne += `
		UNION
		SELECT id FROM (SELECT id FROM bundles WHERE ` + filters + ` AND search @@ ` + q + ` AND ` + needed + `
			ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(partialAllButOne) + `) AS pk` + strconv.Itoa(i)
	}
	return `
	UNION ALL
	SELECT y.id, ` + strconv.Itoa(partialTier) + `, ` + score + `, y.indexed_at FROM (
		SELECT id FROM (SELECT id FROM bundles WHERE ` + filters + ` AND ` + head + ` AND ` + needed + `
			ORDER BY indexed_at DESC, id LIMIT ` + win + `) AS ph
		UNION
		SELECT id FROM sw WHERE ` + needed + `
		UNION
		SELECT id FROM (SELECT id FROM bundles WHERE ` + filters + ` AND search @@ ` + tq.some + ` AND ` + needed + `
			ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(partialWalk) + `) AS pa` + allButOne + `
	) AS c JOIN bundles AS y USING (id)
	WHERE NOT ` + tq.holdsAll("y.") + ` AND y.id NOT IN (SELECT id FROM e)`
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
		next := `okf_prefix(` + b.arg(word) + `, 'CD')`
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

// stoppedByReadTimeout reports whether err is a statement canceled by the
// read pool's statement_timeout (query_canceled while the caller still
// waits), not by the caller going away.
func stoppedByReadTimeout(ctx context.Context, err error) bool {
	pgErr := (*pgconn.PgError)(nil)
	return errors.As(err, &pgErr) && pgErr.Code == "57014" && ctx.Err() == nil
}
