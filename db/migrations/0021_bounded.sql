-- 0021_bounded: what keeps one bundle from breaking the rest (store/isolate.go,
-- store/lookalike.go, pkg/cardsize).
--
-- Repository signals are counts: negative stars or forks are refused by the
-- writers, and the table holds none, so that relevance's logarithm of the
-- stars never sees one. Rows written before are set to 0 first.
UPDATE bundles SET repo_stars = 0 WHERE repo_stars < 0;
UPDATE bundles SET repo_forks = 0 WHERE repo_forks < 0;
ALTER TABLE bundles ADD CONSTRAINT bundles_signals_counts CHECK (repo_stars >= 0 AND repo_forks >= 0);

-- cut: the card fields cardsize.Fit cut to fit the card's sizes, the card's
-- "cut"; empty when none.
--
-- look_alike_key: safetext.LookAlikeKey(name), the TR39 skeleton under which
-- names that look the same are equal ('' for rows written before this
-- migration, until a writer rewrites them: store.analysisVersion 2).
-- look_alike_of: the earliest indexed live bundle with the same key but
-- another name (okf_name_key) of which this live bundle is a look-alike; the
-- card's "look_alike_of", and what the exact tier of relevance ranks after
-- the original.
ALTER TABLE bundles
    ADD COLUMN cut text[] NOT NULL DEFAULT '{}',
    ADD COLUMN look_alike_key text NOT NULL DEFAULT '',
    ADD COLUMN look_alike_of text COLLATE "C";

CREATE INDEX bundles_live_look_alike ON bundles (look_alike_key, indexed_at, id)
    WHERE visibility = 'live' AND look_alike_key <> '';
