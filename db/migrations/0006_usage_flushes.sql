-- Each usage flush is applied exactly once: a flush whose outcome was not
-- known (a timeout, a dropped connection after the commit) is retried with
-- the same id, and an id already recorded is not added again. Ids older
-- than two days are pruned by the flushes themselves.
CREATE TABLE usage_flushes (
	id         uuid        PRIMARY KEY,
	flushed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_flushes_flushed_at ON usage_flushes (flushed_at);
