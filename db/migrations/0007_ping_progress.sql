-- The operator's ping progress (okf_pings, okf_pings_pending) reads only
-- the last day's submissions and the pending ones, through these indexes,
-- instead of counting a table that only grows.
CREATE INDEX pings_received_at ON pings (received_at);
CREATE INDEX pings_pending ON pings (received_at) WHERE state = 'pendente';
