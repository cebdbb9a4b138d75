package store

import (
	"context"
	"fmt"
	"time"
)

// The operator's figures of the full variant (GET /api/metrics with the
// operator token): money taken and credit held, summed from the rows of
// x402_payments and credit_movements (0011_payments.sql), and the accounts
// of 0009_accounts.sql. Money is integer micro-dollars; every sum is one
// statement on the primary, so the figures agree with each other.

// DevTransaction is the transaction a payment of X402_MODE=dev is recorded
// with when it is marked settled: nothing moved on chain, so Finance counts
// it apart from the money received.
const DevTransaction = "dev"

// Finance is money taken and credit held, in micro-dollars.
type Finance struct {
	ReceivedMicros    int64 // x402 payments settled on chain
	Payments          int64 // how many
	SimulatedPayments int64 // settled in dev mode: nothing was received
	PendingPayments   int64 // claimed or unknown: not yet settled (the settle_payment job, or okfctl payments)
	PendingMicros     int64
	UnknownPayments   int64      // of the pending, those whose settle answer was lost at least once
	PendingOldest     *time.Time // when the oldest pending payment was claimed; nil when none is
	FailedPayments    int64      // refused at settlement; nothing was received
	RefundedPayments  int64      // returned by hand by an operator

	CreditSoldMicros    int64 // credit movements of kind credit
	CreditSpentMicros   int64 // credit movements of kind debit
	CreditBalanceMicros int64 // what the tokens still hold: sold minus spent
	CreditTokens        int64
	CreditDebits        int64
}

// Finance sums the payments and credit of the whole database (every
// product's movements: the house's credit tokens pay every product).
func (s *Store) Finance(ctx context.Context) (Finance, error) {
	var f Finance
	err := s.write.QueryRow(ctx, `
		SELECT
			coalesce(sum(amount_micros) FILTER (WHERE state = 'settled' AND mode = 'live' AND transaction <> $1), 0)::bigint,
			count(*) FILTER (WHERE state = 'settled' AND mode = 'live' AND transaction <> $1),
			count(*) FILTER (WHERE state = 'settled' AND (mode = 'dev' OR transaction = $1)),
			count(*) FILTER (WHERE state IN ('claimed', 'unknown')),
			coalesce(sum(amount_micros) FILTER (WHERE state IN ('claimed', 'unknown')), 0)::bigint,
			count(*) FILTER (WHERE state = 'unknown'),
			min(created_at) FILTER (WHERE state IN ('claimed', 'unknown')),
			count(*) FILTER (WHERE state = 'failed'),
			count(*) FILTER (WHERE state = 'refunded'),
			(SELECT coalesce(sum(amount_micros) FILTER (WHERE kind = 'credit'), 0)::bigint FROM credit_movements),
			(SELECT coalesce(sum(amount_micros) FILTER (WHERE kind = 'debit'), 0)::bigint FROM credit_movements),
			(SELECT count(*) FILTER (WHERE kind = 'debit') FROM credit_movements),
			(SELECT coalesce(sum(balance_micros), 0)::bigint FROM credit_tokens),
			(SELECT count(*) FROM credit_tokens)
		FROM x402_payments`, DevTransaction).Scan(
		&f.ReceivedMicros, &f.Payments, &f.SimulatedPayments, &f.PendingPayments, &f.PendingMicros, &f.UnknownPayments, &f.PendingOldest,
		&f.FailedPayments, &f.RefundedPayments,
		&f.CreditSoldMicros, &f.CreditSpentMicros, &f.CreditDebits, &f.CreditBalanceMicros, &f.CreditTokens)
	if err != nil {
		return Finance{}, fmt.Errorf("store: finance: %w", err)
	}
	return f, nil
}

// AccountTotals counts the full variant's accounts.
type AccountTotals struct {
	Total    int64 // identities seen (a profile each)
	KeysLive int64 // live API keys of the product: neither revoked nor stopped
}

// AccountTotals counts accounts, and the live API keys of product.
func (s *Store) AccountTotals(ctx context.Context, product string) (AccountTotals, error) {
	var a AccountTotals
	err := s.write.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM account_profiles),
		       (SELECT count(*) FROM api_keys WHERE product = $1 AND revoked_at IS NULL AND stopped_at IS NULL)`,
		product).Scan(&a.Total, &a.KeysLive)
	if err != nil {
		return AccountTotals{}, fmt.Errorf("store: account totals: %w", err)
	}
	return a, nil
}
