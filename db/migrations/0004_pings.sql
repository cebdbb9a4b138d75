-- 0004_pings: IndexNow submissions (POST /api/ping) and their outcomes.
--
-- pings: one row per distinct URL of an accepted submission. A re-ping of
-- the same URL adds a row, so the status endpoint shows every submission.
-- state moves once, from pendente to publicado (bundle_id set) or to
-- rejeitado (reason set), when the verify_ping job has decided.
CREATE TABLE pings (
    id          bigserial PRIMARY KEY,
    host        text NOT NULL CHECK (host = lower(host)),
    url         text NOT NULL,
    state       text NOT NULL DEFAULT 'pendente'
                CHECK (state IN ('pendente', 'publicado', 'rejeitado')),
    bundle_id   text,
    reason      text,
    received_at timestamptz NOT NULL DEFAULT now(),
    checked_at  timestamptz
);

-- The status endpoint: a host's newest submissions first.
CREATE INDEX pings_host_recent ON pings (host, received_at DESC, id DESC);

-- ping_daily: distinct URLs accepted per host per UTC day. The cap (200) is
-- enforced by one conditional upsert, so concurrent pings never overshoot.
CREATE TABLE ping_daily (
    host text NOT NULL,
    day  date NOT NULL,
    n    integer NOT NULL CHECK (n >= 0),
    PRIMARY KEY (host, day)
);
