-- Usage counters by UTC day (contract 4.4): one row per day and metric,
-- moved by batched increments (pkg/usage), never one row per request.
CREATE TABLE usage_daily (
	day    date   NOT NULL,
	metric text   NOT NULL CHECK (metric ~ '^[a-z][a-z0-9_]{0,62}$'),
	n      bigint NOT NULL DEFAULT 0 CHECK (n >= 0),
	PRIMARY KEY (day, metric)
);
