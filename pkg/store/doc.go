// Package store owns all SQL of the service: the schema's migrations (applied
// from package db), bundle writes, search, cards and statistics, over pgx v5.
// Nothing else in the project imports pgx for queries; handlers and workers
// call Store methods. It holds no business rules beyond keeping the stored
// rows and their summaries consistent.
//
// One denormalised table, bundles, holds each bundle's card, source and
// repository signals, so that cards and searches never join
// (db/migrations/0001_schema.sql). Its writers keep a statistics summary,
// bundle_facets, through statement-level triggers, so that Stats reads a few
// index entries whatever the size of the index (0002_stats.sql).
//
// Files, one concern each:
//
//	doc.go         this overview
//	store.go       Open, Close, pools, the retried write transaction
//	migrate.go     Migrate: our SQL files, then River's tables
//	types.go       the types and errors callers see: Bundle, BundleInput, SearchParams, IndexStats
//	row.go         BundleInput to column values: cleaning, content hash
//	bundles.go     UpsertBundle, GetBundle, the withdraw path of HideBundle
//	upsertbatch.go UpsertBundles: many bundles a transaction and a statement
//	eachrow.go     a batch's rows prepared on every core
//	pendinglist.go the text indexes' GIN pending lists, flushed after the writes at most once a second
//	bundlecolumns.go the written columns of bundles, one list: upsertSQL and its arguments
//	visibility.go  exact duplicates, HideRepoBundlesExcept, HideGoneRepo, HideBundle
//	repos.go       SetRepoSignal
//	isolate.go     UpsertIsolated, Refusal: a bundle the database refuses fails alone, the rest of its batch is written
//	lookalike.go   look_alike_of: a name that looks like an earlier bundle's without being it (TR39 skeletons)
//	search.go      Search, and how each search shape stays bounded
//	searchsql.go   the statement of a sorted search, and the filters' WHERE clause
//	relevance.go   relevance's statement: its tiers, weights and candidate sources
//	cursor.go      the cursors of deep pages: seek past the last bundle instead of counting offset
//	selfexclusion.go  ErrQueryExcludesItself: a q that excludes every word it asks for
//	textquery.go   q as the statements look it up: its terms' text queries (pkg/searchtext reads q)
//	termfold.go    q's text query calls (okf_term, ...) computed once a search and passed as parameters
//	termweight.go  the index's own stop words: q's terms that most bundles hold (shares sampled from the live bundles)
//	suggest.go     Suggest: "did you mean", names a few edits from q (pg_trgm)
//	suggestwords.go  how q and names are cut into words, corrected and combined (pure)
//	stats.go       Stats, RecountStats
//	sweep.go       the GitHub sweep's candidates and progress
//	pings.go       IndexNow submissions and their daily cap
//	pingkeys.go    keys proven on their host, so made-up keys cannot use up the owner's cap
//	usage.go       AddUsage, Usage: the daily usage counters
//	vitrine.go     full variant: measured days, salted visitor hashes, the collector's published documents
//	accounts.go    full variant: profiles and pictures of identities
//	sessions.go    full variant: sessions ended here or at the house, identity events
//	apikeys.go     full variant: API keys and their limit of live keys
//	credit.go      full variant: prepaid credit and its one-statement debit, by payment mode
//	payments.go    full variant: x402 payments claimed once, settled and granted once, listed and refunded
//	contact.go     full variant: the contact outbox, the free message and the agent backoff
//	finance.go     full variant: the operator's sums of payments, credit and accounts
//	opsstats.go    Ping, PoolStats, OpsStats: what the operator listener reads
//	ownerstatus.go what the sweep saw per repository (RecordRepoReads, RepoStatus), link counts and their index-wide figure
//	pagecounts.go  the web page's counts: CountMatches, SearchFacets (count and facets of a search, bounded), OwnerBundles, RepoBundles
//	facetquery.go  a search's filters as a condition of the text indexes' facet lexemes (okf_facets)
//	estimates.go   what the statistics say of a search's matches: how many, and whether few enough to read them all
//	unavailable.go IsUnavailable, UnavailableCause: which failures are the database's
//	changes.go     the change feed: Changes, RecentChanges, CompactChanges (events written by triggers)
//	freshness.go   BundlesWritten, TrimBundleWrites: whether bundles were written since a snapshot (the API's page cache)
//	loadharness.go NaiveSearch, Analyze: the baseline and the bulk build of make load; never served
//
// Tests sit beside each file; package storetest gives every test package a
// real, migrated database on an ephemeral cluster.
//
// Writes take advisory locks in a fixed order (see visibility.go) and are
// retried when Postgres still picks them as a deadlock victim. Reads go
// through a separate pool (Config.ReadURL, a replica if there is one) whose
// sessions plan every search with its real parameter values.
package store
