-- 0019_suggest: "did you mean" (store.Suggest): the names and repository
-- names of live bundles, in a table of their own, close to q in trigram
-- similarity.
--
-- pg_trgm compares strings by the three-character sequences of their words;
-- its GIN operator class answers "similarity(a, b) >= the threshold" (the %
-- operator) with candidates that each need a recheck of the row. On
-- bundles (a row of kilobytes, mostly not in shared buffers) a q of common
-- trigrams rechecked thousands of rows from disk: 200+ ms at a million
-- bundles. suggest_names holds only the names, one row per distinct key,
-- a few tens of bytes: its rechecks stay in memory, and bundles' writes pay
-- no trigram index.
--
-- key is okf_name_key (0012), what the exact tier compares, so a search for
-- a suggestion finds its bundle first; name is the name as first written.
-- Writers add the names and repository names (without the owner) of the
-- bundles they leave live (UpsertBundles); a name whose bundles are all
-- gone stays, and Suggest offers a key only while a live bundle holds it
-- (an exact tier probe). Keys over 64 characters are left out: Suggest
-- looks up at most 64, and a suggestion is at most three edits away.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE suggest_names (
    key  text COLLATE "C" PRIMARY KEY,
    name text NOT NULL
);
CREATE INDEX suggest_names_trgm ON suggest_names USING gin (key gin_trgm_ops);

-- okf_fill_suggest_names adds the names of every live bundle: here, for the
-- bundles already written, and for a database loaded without the writers
-- (the benchmark's COPY).
CREATE FUNCTION okf_fill_suggest_names() RETURNS void
LANGUAGE sql AS $$
INSERT INTO suggest_names (key, name)
SELECT DISTINCT ON (key) key, name FROM (
    SELECT okf_name_key(name) AS key, name FROM bundles WHERE visibility = 'live'
    UNION ALL
    SELECT okf_name_key(split_part(repo, '/', 2)), split_part(repo, '/', 2) FROM bundles
    WHERE visibility = 'live' AND repo IS NOT NULL
) AS names
WHERE key <> '' AND length(key) <= 64
ORDER BY key, name
ON CONFLICT (key) DO NOTHING
$$;

SELECT okf_fill_suggest_names();
