-- 0020_suggest_words: "did you mean" (store.Suggest) corrects the words of
-- q against a dictionary of the words of live names, then keeps the
-- corrections that are a live bundle's name.
--
-- suggest_names (0019) held every distinct name: a trigram probe there
-- unions the posting lists of q's trigrams over as many keys as there are
-- bundles, and a name of common trigrams rechecked thousands of rows. The
-- words of names are far fewer than the names (they repeat), so their
-- trigram probe stays small whatever the index's size, and a writer's new
-- bundle mostly adds no word at all: its upkeep is a primary key probe a
-- word.
--
-- A word is a run of okf_name_key (0012) between spaces, 3 to 48
-- characters: what the exact tier compares, so a correction that is a
-- name's key finds that bundle first. Writers add the words of the names
-- and repository names (without the owner) of the bundles they leave live
-- (UpsertBundles); a word whose bundles are all gone stays, and a
-- suggestion is offered only while a live bundle holds it (an exact tier
-- probe).
CREATE TABLE suggest_words (
    word text COLLATE "C" PRIMARY KEY
);
CREATE INDEX suggest_words_trgm ON suggest_words USING gin (word gin_trgm_ops)
    WITH (fastupdate = off);

-- okf_fill_suggest_words adds the words of every live bundle's names: here,
-- for the bundles already written, and for a database loaded without the
-- writers (the benchmark's COPY).
CREATE FUNCTION okf_fill_suggest_words() RETURNS void
LANGUAGE sql AS $$
INSERT INTO suggest_words (word)
SELECT DISTINCT word FROM (
    SELECT regexp_split_to_table(okf_name_key(name), ' ') AS word FROM bundles WHERE visibility = 'live'
    UNION ALL
    SELECT regexp_split_to_table(okf_name_key(split_part(repo, '/', 2)), ' ') FROM bundles
    WHERE visibility = 'live' AND repo IS NOT NULL
) AS words
WHERE char_length(word) BETWEEN 3 AND 48
ORDER BY word
ON CONFLICT (word) DO NOTHING
$$;

SELECT okf_fill_suggest_words();

DROP FUNCTION okf_fill_suggest_names();
DROP TABLE suggest_names;

-- GIN pending lists. With fastupdate (the default) a GIN index keeps new
-- entries in a list that every probe scans whole until a vacuum or 4 MB of
-- them flushes it into the tree. Every search reads bundles_live_exact (the
-- exact tier and Suggest): its entries are four short keys a row, cheap to
-- insert one by one, so it takes them at once. The text indexes keep their
-- lists: their batched insertion is most of what makes a bundle's write
-- cheap (a 256 kB list made a heavy bundle's write cost half as much again
-- Postgres CPU), and autovacuum flushes them.
ALTER INDEX bundles_live_exact SET (fastupdate = off);
SELECT gin_clean_pending_list('bundles_live_exact'::regclass);
