-- Public usage projection and operator views (contract 2.8 and 4.7, full
-- variant), and the unique-visitor measurement they publish.

-- usage_days: a row for every UTC day on which an API process counted
-- usage (the first flush of each day writes it), so a day without a row
-- was not measured (null in the projection) and a measured day without a
-- counter row really counted zero. visitor_salt is the day's random salt of
-- the visitor hash, shared by the replicas; it is set to NULL when the day
-- is closed (its visitors counted into usage_daily as okf_visitor), after
-- which the day's hashes can no longer be linked to any address.
CREATE TABLE usage_days (
	day          date  PRIMARY KEY,
	visitor_salt bytea CHECK (visitor_salt IS NULL OR octet_length(visitor_salt) = 32)
);

-- usage_visitors: the distinct visitors of the days not yet closed, as
-- 8-byte keyed hashes of (client address, User-Agent family) under the
-- day's salt. No address is stored; the rows of a day are deleted when it
-- is closed.
CREATE TABLE usage_visitors (
	day date  NOT NULL REFERENCES usage_days (day) ON DELETE CASCADE,
	h   bytea NOT NULL CHECK (octet_length(h) = 8),
	PRIMARY KEY (day, h)
);

-- vitrine_documents: what the collector (the worker's publish_vitrine job)
-- published last, per product and kind: the public projection, the
-- operator's full document, the panel and the cursors. hour is the UTC
-- hour of the publication: a second run within the same hour writes
-- nothing.
CREATE TABLE vitrine_documents (
	produto      text        NOT NULL CHECK (produto ~ '^[a-z][a-z0-9_-]{0,39}$'),
	kind         text        NOT NULL CHECK (kind IN ('publico', 'operador', 'painel', 'cursores')),
	hour         timestamptz NOT NULL,
	published_at timestamptz NOT NULL,
	doc          json        NOT NULL, -- json, not jsonb: served byte for byte as published
	PRIMARY KEY (produto, kind)
);
