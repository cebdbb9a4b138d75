-- Accounts of the full variant (contract 2.8, 3.3, 5): the house's identity
-- service signs sessions and events; this service keeps only what it owns.
-- Identity, organization and session ids are the identity service's
-- opaque strings.

-- One profile per identity, created on first sight with defaults and kept
-- in step with the session's claims; revision moves on every change.
CREATE TABLE account_profiles (
	identity_id text        PRIMARY KEY CHECK (char_length(identity_id) BETWEEN 1 AND 200),
	name        text        NOT NULL DEFAULT '' CHECK (char_length(name) <= 200),
	locale      text        NOT NULL DEFAULT 'en' CHECK (char_length(locale) BETWEEN 1 AND 35),
	time_zone   text        NOT NULL DEFAULT 'UTC' CHECK (char_length(time_zone) BETWEEN 1 AND 64),
	theme       text        NOT NULL DEFAULT 'system' CHECK (theme IN ('system', 'light', 'dark')),
	revision    bigint      NOT NULL DEFAULT 1 CHECK (revision >= 1),
	created_at  timestamptz NOT NULL DEFAULT now(),
	updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The picture the identity service pushed for an identity (a signed event):
-- WebP, at most 64 KiB, checked when it arrives and when it is served.
CREATE TABLE account_avatars (
	identity_id text        PRIMARY KEY CHECK (char_length(identity_id) BETWEEN 1 AND 200),
	webp        bytea       NOT NULL CHECK (octet_length(webp) BETWEEN 1 AND 65536),
	updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Sessions ended here (logout): by product, so that another product's
-- session of the same identity keeps working. Rows past the session's
-- expiry are pruned on the way.
CREATE TABLE revoked_sessions (
	product     text        NOT NULL,
	session_id  text        NOT NULL CHECK (char_length(session_id) BETWEEN 1 AND 200),
	identity_id text        NOT NULL,
	revoked_at  timestamptz NOT NULL DEFAULT now(),
	expires_at  timestamptz NOT NULL,
	PRIMARY KEY (product, session_id)
);
CREATE INDEX revoked_sessions_expires_at ON revoked_sessions (expires_at);

-- Sessions ended at the house (password change, "end all sessions"): every
-- session of the identity issued before sessions_before is refused.
CREATE TABLE identity_cutoffs (
	identity_id     text        PRIMARY KEY,
	sessions_before timestamptz NOT NULL
);

-- Identity events applied, by their jti: a replayed event changes nothing.
CREATE TABLE identity_events (
	jti         text        PRIMARY KEY CHECK (char_length(jti) BETWEEN 1 AND 200),
	identity_id text        NOT NULL,
	kind        text        NOT NULL,
	received_at timestamptz NOT NULL DEFAULT now()
);

-- API keys: hsk_ plus a random secret; only its SHA-256 is kept. A key is
-- live while neither revoked (by its owner) nor stopped (by a password
-- change or "end all sessions" at the house).
CREATE TABLE api_keys (
	id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
	identity_id     text        NOT NULL REFERENCES account_profiles (identity_id),
	product         text        NOT NULL,
	organization_id text        CHECK (char_length(organization_id) BETWEEN 1 AND 200),
	name            text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
	secret_hash     bytea       NOT NULL UNIQUE CHECK (octet_length(secret_hash) = 32),
	last4           text        NOT NULL CHECK (char_length(last4) = 4),
	created_at      timestamptz NOT NULL DEFAULT now(),
	last_used_at    timestamptz,
	revoked_at      timestamptz,
	stopped_at      timestamptz
);
CREATE INDEX api_keys_owner ON api_keys (identity_id, product, created_at);
