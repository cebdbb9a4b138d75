-- 0008_ping_keys: IndexNow keys proven on their host, and the daily cap
-- counted apart for them.
--
-- An IndexNow key is public by design (it sits in a file on the host), so
-- a key alone proves nothing until the key file matches. Submissions with a
-- key that has matched on the host before draw on ping_daily.n; those with
-- any other key draw on ping_daily.n_unproven. Each has the cap of 200 URLs
-- per UTC day, so submissions with made-up keys can never use up what the
-- host's owner may submit.
CREATE TABLE ping_keys (
    host        text NOT NULL CHECK (host = lower(host)),
    key_sha256  text NOT NULL CHECK (key_sha256 ~ '^[0-9a-f]{64}$'),
    verified_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (host, key_sha256)
);

ALTER TABLE ping_daily ADD COLUMN n_unproven integer NOT NULL DEFAULT 0 CHECK (n_unproven >= 0);
