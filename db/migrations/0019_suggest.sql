-- 0019_suggest: "did you mean" (store.Suggest): names and repository names
-- of live bundles close to q in trigram similarity.
--
-- pg_trgm compares strings by the three-character sequences of their words
-- (runs of letters and digits, lowercased); its GIN operator class answers
-- "similarity(a, b) >= the threshold" (the % operator) from the index,
-- reading the posting lists of q's trigrams. Suggest raises
-- pg_trgm.similarity_threshold for its own transaction (SET LOCAL), bounds
-- q's length and the rows it rechecks (store/suggest.go).
--
-- The indexes hold the columns as written, not okf_name_key (0012): a
-- string's trigrams are already those of its key (case and separators do
-- not count: "Acme/Widgets" and "acme widgets" have the same), and GIN's
-- recheck of each candidate row then costs no regexp_replace, the bulk of
-- a candidate's cost. Suggest compares keys (never offering q's own) only
-- for the few rows that qualify.
--
-- The candidates are what the exact tier of relevance matches, so a
-- suggestion leads to its bundle first: a bundle's name, and its
-- repository's name without the owner (none for a domain bundle).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX bundles_live_name_trgm ON bundles USING gin (name gin_trgm_ops)
    WHERE visibility = 'live';
CREATE INDEX bundles_live_repo_name_trgm ON bundles USING gin (split_part(repo, '/', 2) gin_trgm_ops)
    WHERE visibility = 'live' AND repo IS NOT NULL;
