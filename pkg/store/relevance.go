package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	// popularity is in double precision: exp(1.0) is numeric, and a
	// numeric ln a row (and the scores' numeric products after it) cost
	// several times the float's.
	popularity = `ln(2.718281828459045::float8 + coalesce(%s.repo_stars, 0))`
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

// restFrom is the offset from which a relevance page lists the rest tier
// alone (restPage): past e, h and p, which hold at most rankWindow each,
// neither the window nor the partial tier can reach it.
const restFrom = 3 * rankWindow

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
func (b *sqlBuilder) relevance(tq textQuery, filters, headFilters string, limit, offset int, after string, m termMatch) string {
	// newest is the n newest bundles passing where (newestSQL), read
	// whole and sorted when the matches are few (m.narrow: filters on
	// facet values are then tested in the text indexes, with the words;
	// m.few: the bundles holding every term). matches, the rest tier's (a,
	// and the page of the rest alone), is read so also when the page is
	// deep (m.deep: an offset that walks more rows than q has matches,
	// deepMatches): offset 864 of a word in 1% of a million bundles walked
	// ~87,000 rows of the recency order (830 ms) for 888 of its 10,047
	// matches.
	newestOf := func(readAll bool) func(cols, where string, n int) string {
		return func(cols, where string, n int) string { return newestSQL(cols, where, n, readAll) }
	}
	newest := newestOf(m.narrow || m.few)
	matches := newestOf(m.narrow || m.few || m.deep)
	// The sources read through an index ask the whole vector for the words
	// as written; the typed word's prefix is met by h (the head) and by the
	// starred walk, which checks each row it reads.
	match := filters + ` AND search @@ ` + tq.all
	window := b.relevanceWindow(tq, filters, headFilters, match, newest, m.narrow, m.narrow || m.few)
	score := windowScore(tq)
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
		` + matches(`id, indexed_at`, where, n) + `) AS s
	WHERE ` + notRanked + `
	LIMIT ` + strconv.Itoa(limit) + off + `
) AS page JOIN bundles AS b USING (id)
ORDER BY page.indexed_at DESC, page.id`
	}
	if after != "" {
		return restPage(match+` AND `+after, limit+3*rankWindow, ``)
	}
	if offset >= restFrom {
		return restPage(match, offset+limit, ` OFFSET `+strconv.Itoa(offset)+` - `+ranked)
	}
	end := offset + limit
	// A page past e and w leaves them out of ordered, and its offset is
	// counted from the start of the rest.
	scored := ranked + ` > ` + strconv.Itoa(offset)
	off := strconv.Itoa(offset) + ` - (CASE WHEN ` + scored + ` THEN 0 ELSE ` + ranked + ` END)`
	partial := ``
	if len(tq.terms) > 1 && !m.many {
		partial = b.partialTier(tq, filters, end, ranked, m)
	}
	// a is planned as it stands (a walk of bundles_live_recent for a common
	// q, a read of the GIN index and a sort for a rarer one): a LIMIT over
	// it that the planner cannot read would make it plan for a few rows and
	// walk 15,000 rows for a q in 0.1% of bundles. A materialized CTE is
	// read as far as it is pulled: the rest's LIMIT pulls the rows the page
	// needs past the window, none when the window fills it.
	return window + `, a AS MATERIALIZED (
	` + matches(`id, indexed_at`, match, end) + `
), ordered AS (
	SELECT id, ` + strconv.Itoa(exactTier) + ` AS tier, e.near::int * 1e6 - e.look_alike::int * 1e3 + ` + fmt.Sprintf(popularity, "e") + ` + e.named::int * 1e-7 AS score, indexed_at
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

// relevanceWindow is relevance's first CTEs, the exact tier and the
// ranked window (e0, e, h, sw, pw, p0, pr, p and w), over the bundles
// passing filters; match is filters and the whole vector's test of q.
// newest reads every match and sorts them when fenced. headFilters, when
// given, are filters with the facet values in the text index's form
// (narrowHead): h reads its head matches through the head's text index
// with them and sorts them.
func (b *sqlBuilder) relevanceWindow(tq textQuery, filters, headFilters, match string, newest func(cols, where string, n int) string, narrow, fenced bool) string {
	win := strconv.Itoa(rankWindow)
	// A head match is a match unless q excludes a word ("-word") that the
	// rest of the bundle holds (headHolds).
	head := tq.headHolds(tq.allTyped)
	key := b.arg(tq.key)
	exact := `okf_exact_keys(name, repo, id) @> ARRAY[okf_name_key(` + key + `)]`
	// near: the bundle is in the folder a pasted link points at, which
	// comes first among the bundles of its repository.
	near := `false`
	if tq.dir != "" {
		near = `dir = ` + b.arg(tq.dir)
	}
	// named: the bundle's name holds q's words in order. Of the bundles of
	// one repository named by q (as many stars each), the one whose name
	// says it comes first, not the newest ("awesome okf": the repository's
	// "Awesome OKF Bundle" before its other bundles).
	named := `position(' ' || okf_name_key(` + key + `) || ' ' IN ' ' || okf_name_key(name) || ' ') > 0`
	byStars := ` ORDER BY repo_stars DESC NULLS LAST, id LIMIT ` + win
	// The starred walk: the starWalk most starred bundles passing the
	// filters, or, when the matches are few (narrow), the most starred of
	// them, every one read through the text indexes and sorted.
	starred := `SELECT id, repo_stars, indexed_at, search, search_head FROM bundles WHERE ` + filters + `
		ORDER BY repo_stars DESC NULLS LAST, id LIMIT ` + strconv.Itoa(starWalk)
	// rankAll: p0 reads the matches to rank them all when the walk found
	// none or saw every bundle passing the filters; when they are few
	// (narrow) it reads them anyway, as the intersection is cheap, and
	// ranks them all when they are at most exactCap, as a rare word's. Not
	// when q names a bundle (the exact tier holds one): q asked for it, and
	// the window of the newest name matches and the most starred matches
	// follows it without reading up to exactCap+1 matches (a three-word
	// name of words in 1-3% of bundles each: 1,385 matches, the bitmap of
	// their postings and 257 heap rows read to learn they were too many).
	unnamed, namesOne := `(SELECT count(*) FROM e) = 0`, `(SELECT count(*) FROM e) > 0`
	rankAll := unnamed + ` AND ((SELECT count(*) FROM pw) <= ` + strconv.Itoa(rareWalk) + `
		OR (SELECT count(*) FROM (SELECT 1 FROM bundles WHERE ` + filters + ` LIMIT ` + strconv.Itoa(starWalk) + `) AS n) < ` + strconv.Itoa(starWalk) + `)`
	if narrow {
		rankAll = unnamed
		starred = `SELECT id, repo_stars, indexed_at, search, search_head FROM (
		SELECT id, repo_stars, indexed_at, search, search_head FROM bundles WHERE ` + filters + ` AND ` + tq.holdsSome("") + ` OFFSET 0) AS m
		ORDER BY repo_stars DESC NULLS LAST, id LIMIT ` + strconv.Itoa(starWalk)
	}
	score := windowScore(tq)
	// h, the newest head matches. A q that names a bundle (the exact tier
	// holds one) is not being typed: its last word is whole, and h does
	// not look it up as a prefix too, whose GIN scan collects the postings
	// of every name word it begins ("Lomi Shitalo Shine": 20 ms of a 43 ms
	// statement for the words beginning "shine" at 1M). Which of the two
	// reads runs is decided once, before either starts; the starred walk
	// tests its rows alike.
	headsOf := func(typed, also string) string {
		if headFilters != "" {
			return newestSQL(`id, indexed_at`, headFilters+` AND `+tq.headHolds(typed)+also, rankWindow, true)
		}
		return newest(`id, indexed_at`, filters+` AND `+tq.headRead(typed, fenced)+also, rankWindow)
	}
	heads := headsOf(tq.allTyped, ``)
	holdsAll := tq.holdsAll("") // the starred walk's test, alike
	if tq.allTyped != tq.all {
		holdsAll = `(search @@ ` + tq.all + ` OR (` + unnamed + ` AND ` + head + `))`
		heads = `(` + headsOf(tq.allTyped, ` AND `+unnamed) + `)
	UNION ALL
	(` + headsOf(tq.all, ` AND `+namesOne) + `)`
	}
	// The window: e (e0 is read through bundles_live_exact: its LIMIT without
	// an order lets no plan walk a sort index computing the keys of every
	// bundle, every live bundle's when no name matches), h, p and w.
	return `
WITH e0 AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, ` + near + ` AS near, look_alike_of IS NOT NULL AS look_alike,
		` + named + ` AS named
	FROM bundles WHERE ` + filters + ` AND ` + exact + `
	LIMIT ` + strconv.Itoa(exactCap+1) + `
), e AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, near, look_alike, named FROM e0
	WHERE (SELECT count(*) FROM e0) <= ` + strconv.Itoa(exactCap) + `
	ORDER BY near DESC, look_alike, repo_stars DESC NULLS LAST, named DESC, id LIMIT ` + win + `
), h AS MATERIALIZED (
	` + heads + `
), sw AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at, ` + holdsAll + ` AS holds_all FROM (
		` + starred + `) AS s
	WHERE ` + tq.holdsSome("") + `
), pw AS MATERIALIZED (
	SELECT id, repo_stars, indexed_at FROM sw WHERE holds_all` + byStars + `
), p0 AS MATERIALIZED (
	SELECT id FROM bundles WHERE ` + match + ` AND ` + rankAll + `
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
}

// windowScore is the ranked window's score of the bundles row x.
func windowScore(tq textQuery) string {
	return `ts_rank_cd(` + rankWeights + `, x.search, ` + tq.allTyped + `) * ` + fmt.Sprintf(popularity, "x")
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
// matches of any term miss among a million bundles); they are ordered by
// how many of q's terms they hold, those their name, identifier or tagline
// holds counted twice, then by the window's score.
func (b *sqlBuilder) partialTier(tq textQuery, filters string, end int, ranked string, m termMatch) string {
	rare := m.rare
	// A q that names a bundle (the exact tier found one: a name, a pasted
	// repository) asked for it, not for bundles holding a few of its words.
	needed := `(SELECT count(*) FROM e) = 0 AND ` + ranked + ` < ` + strconv.Itoa(end) +
		` AND (SELECT count(*) FROM a) < ` + strconv.Itoa(end)
	head := tq.headRead(tq.someTyped, rare)
	// The score: the terms held, each twice when the bundle's name,
	// identifier or tagline holds it (a word of q that names a bundle says
	// more than one its description mentions: "fastendpoints rest api
	// framework" asks for the FastEndpoints repository before bundles
	// mentioning a REST API framework), then the window's score folded
	// into [0, 1) so that it only orders bundles of as many: 1 - 1/(1 + r)
	// is r/(1 + r) with ts_rank_cd computed once a row. A weak term
	// (searchtext.Term.Weak: a stop word of another language) counts half,
	// and the window's score is then folded into [0, 0.5).
	var held []string
	for i := range tq.terms {
		h := `(` + tq.holdsTerm("y.", i) + `)::int + (y.search_head @@ ` + tq.termsTyped[i] + `)::int`
		if tq.weak[i] {
			h = `0.5 * (` + h + `)`
		}
		held = append(held, h)
	}
	rank := `ts_rank_cd(` + rankWeights + `, y.search, ` + tq.someTyped + `) * ` + fmt.Sprintf(popularity, "y")
	fold := `1 - 1 / (1 + ` + rank + `)`
	if slices.Contains(tq.weak, true) {
		fold = `0.5 - 0.5 / (1 + ` + rank + `)`
	}
	score := `(` + strings.Join(held, ` + `) + `) + ` + fold
	// newest is the ids of the n newest bundles passing where, as alias,
	// read whole and sorted with readAll: so when q's terms are rare
	// (rare: their shares under rareShare), since the planner estimates a
	// disjunction of words its statistics do not list at several times
	// their share and walked 936,123 rows for a word pair two bundles
	// hold, at 1M.
	newest := func(where string, n int, alias string, readAll bool) string {
		cols := `id`
		if readAll {
			cols = `id, indexed_at` // the sort is outside the read
		}
		return `SELECT id FROM (` + newestSQL(cols, where, n, readAll) + `) AS ` + alias
	}
	// The matches of q's rarest term, when it is rare (termMatch.rarest),
	// read whole and sorted: among the newest matches of any term, those
	// of its commoner terms crowd out a bundle holding the one word that
	// says what q is about ("how to build a loan platform with nestjs").
	rarest := ``
	if m.rarest > 0 && m.rarest <= len(tq.terms) {
		rarest = `
		UNION
		` + newest(filters+` AND search @@ `+tq.terms[m.rarest-1]+` AND `+needed, partialWalk, `pr`, true)
	}
	allButOne := ``
	for i, q := range tq.allButOne {
		allButOne += `
		UNION
		` + newest(filters+` AND search @@ `+q+` AND `+needed, partialAllButOne, `pk`+strconv.Itoa(i), rare)
	}
	return `
	UNION ALL
	SELECT y.id, ` + strconv.Itoa(partialTier) + `, ` + score + `, y.indexed_at FROM (
		` + newest(filters+` AND `+head+` AND `+needed, rankWindow, `ph`, rare) + `
		UNION
		SELECT id FROM sw WHERE ` + needed + `
		UNION
		` + newest(filters+` AND search @@ `+tq.some+` AND `+needed, partialWalk, `pa`, rare) + allButOne + rarest + `
	) AS c JOIN bundles AS y USING (id)
	WHERE NOT ` + tq.holdsAll("y.") + ` AND y.id NOT IN (SELECT id FROM e)`
}

// newestSQL selects cols of the n newest bundles passing where: by a walk
// of the recency index, or, with readAll, every one read through the
// indexes of where and sorted (OFFSET 0 keeps the planner from walking;
// cols must then hold indexed_at and id). A walk's length is the matches'
// density along the recency order, which the planner cannot know; reading
// all costs their number.
func newestSQL(cols, where string, n int, readAll bool) string {
	if readAll {
		return `SELECT ` + cols + ` FROM (SELECT ` + cols + ` FROM bundles WHERE ` + where + ` OFFSET 0) AS m
		ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(n)
	}
	return `SELECT ` + cols + ` FROM bundles WHERE ` + where + `
		ORDER BY indexed_at DESC, id LIMIT ` + strconv.Itoa(n)
}
