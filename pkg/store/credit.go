package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Payments and prepaid credit of the full variant. Money is integer
// micro-dollars; a debit is one conditional UPDATE, never read-then-write;
// every movement is a row with the product of the house it paid for.

// Errors of payments and credit.
var (
	// ErrPaymentReplayed is an x402 payment whose replay key was claimed
	// before: refused whatever became of the first.
	ErrPaymentReplayed = errors.New("store: x402 payment already used")
	// ErrCreditUnknown is a credit token that matches no stored hash.
	ErrCreditUnknown = errors.New("store: unknown credit token")
	// ErrCreditInsufficient is a debit larger than the balance.
	ErrCreditInsufficient = errors.New("store: insufficient credit")
)

// Payment is an x402 payment to claim before it is settled.
type Payment struct {
	ReplayKey    string // payer and EIP-3009 nonce (x402.Payment.Nonce)
	Payer        string
	AmountMicros int64
	Product      string
	Resource     string
}

// ClaimPayment records an x402 payment before it is settled and returns
// its id; a replay key seen before is ErrPaymentReplayed.
func (s *Store) ClaimPayment(ctx context.Context, p Payment) (int64, error) {
	var id int64
	err := s.write.QueryRow(ctx, `
		INSERT INTO x402_payments (replay_key, payer, amount_micros, product, resource)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (replay_key) DO NOTHING
		RETURNING id`, p.ReplayKey, p.Payer, p.AmountMicros, p.Product, p.Resource).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, ErrPaymentReplayed
	}
	if err != nil {
		return 0, fmt.Errorf("store: claim payment: %w", err)
	}
	return id, nil
}

// FailPayment marks a claimed payment whose settlement failed. Its replay
// key stays used: the client signs a new authorization.
func (s *Store) FailPayment(ctx context.Context, id int64) error {
	_, err := s.write.Exec(ctx, `UPDATE x402_payments SET state = 'failed' WHERE id = $1 AND state = 'claimed'`, id)
	if err != nil {
		return fmt.Errorf("store: fail payment %d: %w", id, err)
	}
	return nil
}

// settlePayment marks a claimed payment settled inside tx; a payment not
// claimed (settled already, failed, unknown) is an error, so a grant
// follows a settlement once.
func settlePayment(ctx context.Context, tx pgx.Tx, id int64, transaction string) error {
	tag, err := tx.Exec(ctx, `
		UPDATE x402_payments SET state = 'settled', transaction = $2, settled_at = now()
		WHERE id = $1 AND state = 'claimed'`, id, transaction)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("store: payment %d is not awaiting settlement", id)
	}
	return nil
}

// BuyCredit records the settlement of payment id and creates a credit
// token (by the SHA-256 of its secret) holding the payment's amount, with
// its credit movement, in one transaction.
func (s *Store) BuyCredit(ctx context.Context, paymentID int64, transaction string, tokenSHA256 []byte) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if err := settlePayment(ctx, tx, paymentID, transaction); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			WITH p AS (SELECT amount_micros, product, resource FROM x402_payments WHERE id = $1),
			t AS (
				INSERT INTO credit_tokens (token_sha256, balance_micros)
				SELECT $2, amount_micros FROM p RETURNING id
			)
			INSERT INTO credit_movements (token_id, kind, amount_micros, product, resource, payment_id)
			SELECT t.id, 'credit', p.amount_micros, p.product, p.resource, $1 FROM t, p`, paymentID, tokenSHA256)
		if err != nil {
			return fmt.Errorf("store: buy credit: %w", err)
		}
		return nil
	})
}

// Debit is a charge against a credit token.
type Debit struct {
	TokenSHA256  []byte
	AmountMicros int64
	Product      string
	Resource     string
}

// debitSQL takes the amount from the balance only when it covers it, and
// writes the movement, in one statement.
const debitSQL = `
	WITH d AS (
		UPDATE credit_tokens SET balance_micros = balance_micros - $2
		WHERE token_sha256 = $1 AND balance_micros >= $2
		RETURNING id
	)
	INSERT INTO credit_movements (token_id, kind, amount_micros, product, resource)
	SELECT id, 'debit', $2, $3, $4 FROM d
	RETURNING id`

// debit charges d inside tx and returns the movement's id:
// ErrCreditInsufficient or ErrCreditUnknown when nothing was taken.
func debit(ctx context.Context, tx pgx.Tx, d Debit) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, debitSQL, d.TokenSHA256, d.AmountMicros, d.Product, d.Resource).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM credit_tokens WHERE token_sha256 = $1)`, d.TokenSHA256).Scan(&exists); err != nil {
			return 0, err
		}
		if !exists {
			return 0, ErrCreditUnknown
		}
		return 0, ErrCreditInsufficient
	}
	return id, err
}

// DebitCredit charges d on its own.
func (s *Store) DebitCredit(ctx context.Context, d Debit) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		_, err := debit(ctx, tx, d)
		return err
	})
}

// CreditMovement is one row of a token's history.
type CreditMovement struct {
	Kind         string // credit or debit
	AmountMicros int64
	Product      string
	Resource     string
	At           time.Time
}

// CreditBalance is a token's balance and recent movements, newest first.
type CreditBalance struct {
	BalanceMicros int64
	CreatedAt     time.Time
	Movements     []CreditMovement
}

// creditMovementsShown is how many recent movements a balance lists.
const creditMovementsShown = 50

// CreditBalance returns the balance of the token whose secret hashes to
// tokenSHA256, or ErrCreditUnknown.
func (s *Store) CreditBalance(ctx context.Context, tokenSHA256 []byte) (CreditBalance, error) {
	var b CreditBalance
	var id int64
	err := s.write.QueryRow(ctx, `SELECT id, balance_micros, created_at FROM credit_tokens WHERE token_sha256 = $1`,
		tokenSHA256).Scan(&id, &b.BalanceMicros, &b.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return b, ErrCreditUnknown
	}
	if err != nil {
		return b, fmt.Errorf("store: credit balance: %w", err)
	}
	rows, err := s.write.Query(ctx, `
		SELECT kind, amount_micros, product, resource, created_at FROM credit_movements
		WHERE token_id = $1 ORDER BY id DESC LIMIT $2`, id, creditMovementsShown)
	if err != nil {
		return b, fmt.Errorf("store: credit movements: %w", err)
	}
	b.Movements, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (CreditMovement, error) {
		var m CreditMovement
		err := r.Scan(&m.Kind, &m.AmountMicros, &m.Product, &m.Resource, &m.At)
		return m, err
	})
	if err != nil {
		return b, fmt.Errorf("store: credit movements: %w", err)
	}
	return b, nil
}
