-- 0001_schema: the bundles table that search reads without joins, and the
-- statistics summary its writers keep.
--
-- Applied once, in one transaction, by store.Migrate. Never edit an applied
-- migration: add the next file instead.

-- okf_concepts_band names the band of a concept count, as IndexStats.by_concepts
-- and the concepts filter use it.
CREATE FUNCTION okf_concepts_band(n integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN n <= 0 THEN '0'
    WHEN n <= 5 THEN '1-5'
    WHEN n <= 20 THEN '6-20'
    WHEN n <= 100 THEN '21-100'
    ELSE '101+'
END;

-- bundles: one row per bundle, denormalised: card fields, source fields and
-- the repository's signals, so that search and cards never join.
--
-- visibility: live (searched), low (card only: example/fixture path, or an
-- exact duplicate of a live bundle), hidden (answers nowhere). path_low marks
-- the example/fixture paths; among the other non-hidden bundles sharing a
-- root_sha256 the earliest (indexed_at, id) is live and the rest low.
CREATE TABLE bundles (
    -- ids are [a-z0-9-]; byte order ("C") makes every order's id tiebreak
    -- the same whatever the database's locale.
    id             text COLLATE "C" PRIMARY KEY,
    visibility     text NOT NULL CHECK (visibility IN ('live', 'low', 'hidden')),
    path_low       boolean NOT NULL DEFAULT false,

    -- card (okf.Card)
    name           text NOT NULL,
    tagline        text NOT NULL DEFAULT '',
    description    text NOT NULL DEFAULT '',
    okf_version    text NOT NULL,
    concepts       integer NOT NULL DEFAULT 0 CHECK (concepts >= 0),
    concept_list   jsonb NOT NULL DEFAULT '[]',
    type           text NOT NULL DEFAULT '',
    index_url      text NOT NULL,
    page_url       text NOT NULL,

    -- source (BundleSource)
    origin         text NOT NULL CHECK (origin IN ('code_host', 'domain')),
    via            text NOT NULL,
    source_url     text NOT NULL,
    host           text NOT NULL DEFAULT '',
    repo           text CHECK (repo = lower(repo)),  -- owner/repo; NULL for domain bundles
    dir            text NOT NULL DEFAULT '',
    path           text NOT NULL DEFAULT '',
    -- ident is the origin identifier ("owner/repo:path" or the root URL)
    -- followed by its words, as the search vector indexes it.
    ident          text NOT NULL DEFAULT '',

    -- repository signals (RepoSignal); all NULL for domain bundles
    repo_stars     integer,
    repo_forks     integer,
    repo_pushed_at timestamptz,
    repo_state     text,
    repo_language  text,
    repo_license   text,

    root_sha256    text NOT NULL,
    -- content_hash covers everything a card shows except repository signals
    -- and timestamps; updated_at moves only when it changes.
    content_hash   text NOT NULL,
    indexed_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,

    -- search: name and origin identifier A, tagline B, description C (the
    -- first 1000 characters of the root body), and the listed concepts'
    -- names and summaries D. q matches all of it; the concept filter only the
    -- root content, C and D.
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, name || ' ' || ident), 'A') ||
        setweight(to_tsvector('simple'::regconfig, tagline), 'B') ||
        setweight(to_tsvector('simple'::regconfig, description), 'C') ||
        setweight(
            jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(concept_list, '$[*].name'), '["string"]') ||
            jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(concept_list, '$[*].summary'), '["string"]'),
            'D')
    ) STORED,
    -- search_head: the A and B parts alone, the candidates relevance ranks
    -- first. Built from at most 300 characters, so that it always fits in
    -- the B-tree that carries it (bundles_live_recent).
    search_head tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, left(name || ' ' || ident, 200)), 'A') ||
        setweight(to_tsvector('simple'::regconfig, left(tagline, 100)), 'B')
    ) STORED
);

-- What filtered walks of a sort index read on every row (the search vectors)
-- stays in the heap row, compressed with lz4 if need be; a TOAST fetch per
-- row would cost more than the rest of the walk. What only the returned page
-- reads (description, concept list) goes to TOAST.
ALTER TABLE bundles ALTER COLUMN search SET STORAGE MAIN;
ALTER TABLE bundles ALTER COLUMN search_head SET STORAGE MAIN;
ALTER TABLE bundles ALTER COLUMN search SET COMPRESSION lz4;
ALTER TABLE bundles ALTER COLUMN description SET COMPRESSION lz4;
ALTER TABLE bundles ALTER COLUMN concept_list SET COMPRESSION lz4;

-- Writers: duplicate groups and repository sweeps.
CREATE INDEX bundles_root_sha256 ON bundles (root_sha256);
CREATE INDEX bundles_repo ON bundles (repo) WHERE repo IS NOT NULL;

-- Sort orders of live bundles; each ends in id so that orders are total.
-- The recent order carries search_head, so that relevance walks it for the
-- newest name and tagline matches with an index-only scan.
CREATE INDEX bundles_live_recent ON bundles (indexed_at DESC, id) INCLUDE (search_head)
    WHERE visibility = 'live';
CREATE INDEX bundles_live_updated ON bundles (updated_at DESC, id) WHERE visibility = 'live';
CREATE INDEX bundles_live_name ON bundles ((lower(name) COLLATE "C"), id) WHERE visibility = 'live';
CREATE INDEX bundles_live_stars ON bundles (repo_stars DESC NULLS LAST, id) WHERE visibility = 'live';

-- Text search (q and the concept filter).
CREATE INDEX bundles_live_search ON bundles USING gin (search) WHERE visibility = 'live';
CREATE INDEX bundles_live_search_head ON bundles USING gin (search_head) WHERE visibility = 'live';

-- Filters, for their rare values (common values walk a sort index).
CREATE INDEX bundles_live_version ON bundles (okf_version) WHERE visibility = 'live';
CREATE INDEX bundles_live_language ON bundles (lower(repo_language)) WHERE visibility = 'live';
CREATE INDEX bundles_live_license ON bundles (lower(repo_license)) WHERE visibility = 'live';
CREATE INDEX bundles_live_type ON bundles (type) WHERE visibility = 'live';
CREATE INDEX bundles_live_band ON bundles (okf_concepts_band(concepts)) WHERE visibility = 'live';
CREATE INDEX bundles_live_origin ON bundles (origin) WHERE visibility = 'live';

-- Search plans choose between walking a sort index (common words) and reading
-- the GIN index (rare words) from the lexeme frequencies ANALYZE keeps; a
-- word missing from that list is assumed to be in half the smallest listed
-- frequency. The default list (1,000 lexemes) makes every word missing from
-- it look like a 0.5% word, so a rare word would walk the whole index.
-- 10,000 lexemes bring that floor under 0.1%.
ALTER TABLE bundles ALTER COLUMN search SET STATISTICS 1000;
ALTER TABLE bundles ALTER COLUMN search_head SET STATISTICS 1000;

-- The planner has no statistics for the expressions of partial indexes: give
-- it some, or it guesses 0.5% for every language, license or band and reads
-- a fifth of the table through a bitmap instead of walking a sort index.
CREATE STATISTICS bundles_language_stats ON (lower(repo_language)) FROM bundles;
CREATE STATISTICS bundles_license_stats ON (lower(repo_license)) FROM bundles;
CREATE STATISTICS bundles_band_stats ON (okf_concepts_band(concepts)) FROM bundles;
