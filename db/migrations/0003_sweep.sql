-- 0003_sweep: what the GitHub sweep knows between runs, so that a killed or
-- restarted worker resumes instead of starting over.
--
-- sweep_candidates: one row per repository a discoverer (or the seed list)
-- found. swept_oid is the default branch's head commit at the last complete
-- read: a repository whose head has not moved is not re-read (its signals
-- still are). gone is set when GitHub answers NOT_FOUND (or private); a later
-- discovery or a successful read clears it.
CREATE TABLE sweep_candidates (
    repo          text PRIMARY KEY CHECK (repo = lower(repo)),  -- owner/name
    owner         text NOT NULL,  -- as GitHub spells it
    name          text NOT NULL,
    discovered_by text[] NOT NULL DEFAULT '{}',  -- seed, repo_search, code_search
    discovered_at timestamptz NOT NULL DEFAULT now(),
    swept_at      timestamptz,
    swept_oid     text NOT NULL DEFAULT '',
    enriched_at   timestamptz,
    gone          boolean NOT NULL DEFAULT false
);

-- The sweep's batching order: the oldest swept first.
CREATE INDEX sweep_candidates_due ON sweep_candidates (swept_at NULLS FIRST, repo) WHERE NOT gone;

-- sweep_windows: progress of the discoverers, one row per slice of a search
-- (a query and a created: date window, or a code query and a size: range).
-- cursor is where the next page starts (a GraphQL endCursor, or a REST page
-- number); done_at is set when the slice is exhausted in the current round.
CREATE TABLE sweep_windows (
    discoverer text NOT NULL,   -- repo_search or code_search
    query      text NOT NULL,   -- the full search string of the slice
    cursor     text NOT NULL DEFAULT '',
    found      integer NOT NULL DEFAULT 0,
    round      text NOT NULL DEFAULT '',  -- the discovery round that last touched it
    done_at    timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (discoverer, query)
);
