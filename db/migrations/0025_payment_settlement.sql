-- 0025_payment_settlement: a payment is settled exactly once and what it
-- paid for is granted once, whoever finishes it: the request that took it,
-- the same payment sent again, the settle_payment job, or an operator
-- (okfctl payments).
--
-- state: claimed (recorded, settle under way), unknown (a settle whose
-- answer was lost: the facilitator may have moved the money), settled
-- (granted in the same transaction), failed (the facilitator refused it),
-- refunded (an operator returned the money by hand and recorded it here).
--
-- doc is the payment document as the client signed it, kept only while the
-- payment is pending (the settle must be repeatable) and cleared once it is
-- final; doc_sha256 stays, so the same payment sent again is recognised.
-- requirement is what was offered (x402.Requirement as JSON); grant is what
-- the payment buys: {"kind":"credit"} or {"kind":"contact","message":...}.
-- A credit token is kept only as its SHA-256 (credit_tokens); token_sealed is
-- the token encrypted under a key derived from the payment's signature,
-- which the database does not keep once the payment is final, so only the
-- client that holds the signed payment can have it shown again. client is
-- the network block the payment came from: the token is shown again only
-- to it.
ALTER TABLE x402_payments DROP CONSTRAINT x402_payments_state_check;
ALTER TABLE x402_payments ADD CONSTRAINT x402_payments_state_check
	CHECK (state IN ('claimed', 'unknown', 'settled', 'failed', 'refunded'));
ALTER TABLE x402_payments
	ADD COLUMN doc          bytea CHECK (octet_length(doc) <= 8192),
	ADD COLUMN doc_sha256   bytea CHECK (octet_length(doc_sha256) = 32),
	ADD COLUMN version      integer NOT NULL DEFAULT 1 CHECK (version IN (1, 2)),
	ADD COLUMN requirement  jsonb,
	ADD COLUMN grant_spec   jsonb,
	ADD COLUMN client       text NOT NULL DEFAULT '' CHECK (char_length(client) <= 64),
	ADD COLUMN token_sealed bytea CHECK (octet_length(token_sealed) <= 256),
	ADD COLUMN attempts     integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	ADD COLUMN last_error   text NOT NULL DEFAULT '' CHECK (char_length(last_error) <= 500),
	ADD COLUMN refund_note  text NOT NULL DEFAULT '' CHECK (char_length(refund_note) <= 500);
CREATE INDEX x402_payments_pending ON x402_payments (created_at) WHERE state IN ('claimed', 'unknown');
