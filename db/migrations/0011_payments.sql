-- Payments of the full variant (contract 2.8, 3.4, 4.6, 5): x402 payments
-- received, prepaid credit, the agent contact backoff and the contact
-- outbox. Money is integer micro-dollars (1e-6 USD) everywhere.

-- Every x402 payment accepted, by its replay key (payer and EIP-3009
-- nonce): a payload is claimed once, before it is settled, so a replay is
-- refused whatever became of the first. state moves claimed -> settled or
-- failed; a row left claimed is a settle whose outcome is unknown (the
-- process died), for an operator to reconcile with the facilitator.
CREATE TABLE x402_payments (
	id            bigserial   PRIMARY KEY,
	replay_key    text        NOT NULL UNIQUE CHECK (char_length(replay_key) <= 200),
	payer         text        NOT NULL CHECK (char_length(payer) <= 64),
	amount_micros bigint      NOT NULL CHECK (amount_micros > 0),
	product       text        NOT NULL,
	resource      text        NOT NULL,
	state         text        NOT NULL DEFAULT 'claimed' CHECK (state IN ('claimed', 'settled', 'failed')),
	transaction   text        NOT NULL DEFAULT '',
	created_at    timestamptz NOT NULL DEFAULT now(),
	settled_at    timestamptz
);

-- Prepaid credit: cred_ plus a random secret; only its SHA-256 is kept.
-- The balance never goes below zero (the debit is one conditional UPDATE).
CREATE TABLE credit_tokens (
	id             bigserial   PRIMARY KEY,
	token_sha256   bytea       NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
	balance_micros bigint      NOT NULL DEFAULT 0 CHECK (balance_micros >= 0),
	created_at     timestamptz NOT NULL DEFAULT now()
);

-- Every movement of credit is a row: credits (purchases) and debits (paid
-- calls), with the product of the house and the resource concerned.
CREATE TABLE credit_movements (
	id            bigserial   PRIMARY KEY,
	token_id      bigint      NOT NULL REFERENCES credit_tokens (id),
	kind          text        NOT NULL CHECK (kind IN ('credit', 'debit')),
	amount_micros bigint      NOT NULL CHECK (amount_micros > 0),
	product       text        NOT NULL CHECK (char_length(product) BETWEEN 1 AND 40),
	resource      text        NOT NULL CHECK (char_length(resource) <= 200),
	payment_id    bigint      REFERENCES x402_payments (id),
	created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_movements_token ON credit_movements (token_id, id DESC);

-- The agent contact backoff (contract 3.4), per recognised agent: the
-- free first message, then refusals that double the wait.
CREATE TABLE contact_agents (
	agent         text        PRIMARY KEY CHECK (char_length(agent) <= 200),
	first_at      timestamptz NOT NULL,
	refusals      integer     NOT NULL DEFAULT 0 CHECK (refusals >= 0),
	blocked_until timestamptz
);

-- The contact outbox: a message accepted (and paid, when paid) is a row
-- written in the same transaction as its payment, sent by the send_contact
-- job; sent_at is set once, when the mail server took it.
CREATE TABLE contact_messages (
	id          bigserial   PRIMARY KEY,
	path        text        NOT NULL CHECK (path IN ('human', 'agent_free', 'agent_x402', 'agent_credit', 'agent_dev')),
	agent       text        NOT NULL DEFAULT '',
	name        text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
	email       text        NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
	message     text        NOT NULL CHECK (char_length(message) BETWEEN 1 AND 10000),
	proposal    jsonb,
	payment_id  bigint      REFERENCES x402_payments (id),
	movement_id bigint      REFERENCES credit_movements (id),
	created_at  timestamptz NOT NULL DEFAULT now(),
	sent_at     timestamptz
);
