-- 0019_suggest: "did you mean" (store.Suggest): names and repository names
-- of live bundles close to q in trigram similarity.
--
-- pg_trgm compares strings by the three-letter sequences they share; its
-- GIN operator class answers "similarity(a, b) >= the threshold" (the %
-- operator) from the index, reading the posting lists of q's trigrams.
-- Suggest raises pg_trgm.similarity_threshold for its own transaction (SET
-- LOCAL), so that only close strings qualify and GIN's fast scan can skip
-- the long posting lists of common trigrams; and it bounds q's length.
--
-- Both sides are compared as okf_name_key (0012_search_rank): case and
-- separators do not count, and a suggestion is never the key of q itself.
-- The candidates are the keys the exact tier of relevance matches, so a
-- suggestion leads to its bundle first: a bundle's name, and its
-- repository's name without the owner (NULL, hence not indexed, for a
-- domain bundle).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX bundles_live_name_trgm ON bundles USING gin (okf_name_key(name) gin_trgm_ops)
    WHERE visibility = 'live';
CREATE INDEX bundles_live_repo_name_trgm ON bundles
    USING gin (okf_name_key(split_part(repo, '/', 2)) gin_trgm_ops)
    WHERE visibility = 'live' AND repo IS NOT NULL;
