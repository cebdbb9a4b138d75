-- 0014_owner_status: what the GitHub sweep saw in each repository at its
-- latest read, for the owner status (GET /api/status) and the broken-link
-- figures (card page, okf_concept_links on the operator listener).
--
-- sweep_roots: one row per index.md the latest read of a repository saw. A
-- read replaces the repository's rows (one statement per page of
-- repositories, store.RecordRepoReads), so a file that left the tree leaves
-- the table. bundle_id is set when the file is a bundle root (its
-- visibility, and why, are read from bundles at status time, since the
-- duplicate rule can change them after the read); otherwise not_bundle says
-- why not (okf.Reason*, or binary) and detail is the parser's sentence.
-- warnings are indexer.Warnings, the ones okfctl lint prints. links_total
-- counts the distinct concept links that stay inside the repository and
-- links_missing those naming no file of the tree read; links_checked is
-- false when the tree was not fully listed (then both are 0).
CREATE TABLE sweep_roots (
    repo          text NOT NULL CHECK (repo = lower(repo)),  -- owner/name
    path          text COLLATE "C" NOT NULL,
    bundle_id     text COLLATE "C",
    not_bundle    text,
    detail        text NOT NULL DEFAULT '',
    warnings      jsonb NOT NULL DEFAULT '[]',
    links_total   integer NOT NULL DEFAULT 0 CHECK (links_total >= 0),
    links_missing integer NOT NULL DEFAULT 0 CHECK (links_missing >= 0 AND links_missing <= links_total),
    links_checked boolean NOT NULL DEFAULT false,
    commit_oid    text NOT NULL DEFAULT '',
    read_at       timestamptz NOT NULL,
    PRIMARY KEY (repo, path),
    CHECK ((bundle_id IS NULL) <> (not_bundle IS NULL))
);

-- The card page reads a bundle's link counts by id.
CREATE INDEX sweep_roots_bundle ON sweep_roots (bundle_id) WHERE bundle_id IS NOT NULL;

-- concept_link_totals: the index-wide figure, one row, recounted by the
-- hourly recount_stats job (store.RecountLinks) so a scrape reads one row:
-- over the non-hidden bundles whose links were checked.
CREATE TABLE concept_link_totals (
    one           boolean PRIMARY KEY DEFAULT true CHECK (one),
    bundles       bigint NOT NULL DEFAULT 0,
    links_total   bigint NOT NULL DEFAULT 0,
    links_missing bigint NOT NULL DEFAULT 0,
    counted_at    timestamptz
);
INSERT INTO concept_link_totals (one) VALUES (true);
