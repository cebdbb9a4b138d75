-- 0024_payment_modes: every payment, credit token and credit movement
-- records the X402_MODE it was taken in, so that credit minted by a dev
-- deployment (nothing moved on chain) never pays on a live one sharing the
-- database, and a dev payment is never resumed by a live deployment.
-- Rows written before: a payment recorded with the dev transaction was dev;
-- a token and its movements follow the payment that bought the token.
ALTER TABLE x402_payments ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'dev'));
UPDATE x402_payments SET mode = 'dev' WHERE transaction = 'dev';
ALTER TABLE x402_payments ALTER COLUMN mode DROP DEFAULT;

ALTER TABLE credit_tokens ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'dev'));
UPDATE credit_tokens t SET mode = 'dev'
FROM credit_movements m JOIN x402_payments p ON p.id = m.payment_id
WHERE m.token_id = t.id AND m.kind = 'credit' AND p.mode = 'dev';
ALTER TABLE credit_tokens ALTER COLUMN mode DROP DEFAULT;

ALTER TABLE credit_movements ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'dev'));
UPDATE credit_movements m SET mode = t.mode FROM credit_tokens t WHERE t.id = m.token_id;
ALTER TABLE credit_movements ALTER COLUMN mode DROP DEFAULT;
