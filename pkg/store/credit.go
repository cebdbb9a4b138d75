package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Prepaid credit of the full variant (payments.go takes the x402
// payments that buy it). Money is integer
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
	// ErrCreditOtherMode is a credit token minted in another X402_MODE:
	// dev credit (nothing moved on chain) never pays on a live deployment,
	// nor live credit on a dev one.
	ErrCreditOtherMode = errors.New("store: credit token of another payment mode")
)

// Debit is a charge against a credit token.
type Debit struct {
	TokenSHA256  []byte
	Mode         string // the deployment's X402_MODE; the token must have been minted in it (live when "")
	AmountMicros int64
	Product      string
	Resource     string
}

// debitSQL takes the amount from the balance only when it covers it, and
// writes the movement, in one statement.
const debitSQL = `
	WITH d AS (
		UPDATE credit_tokens SET balance_micros = balance_micros - $2
		WHERE token_sha256 = $1 AND balance_micros >= $2 AND mode = $5
		RETURNING id
	)
	INSERT INTO credit_movements (token_id, kind, amount_micros, product, resource, mode)
	SELECT id, 'debit', $2, $3, $4, $5 FROM d
	RETURNING id`

// debit charges d inside tx and returns the movement's id:
// ErrCreditInsufficient, ErrCreditOtherMode or ErrCreditUnknown when
// nothing was taken.
func debit(ctx context.Context, tx pgx.Tx, d Debit) (int64, error) {
	var id int64
	mode := modeOr(d.Mode)
	err := tx.QueryRow(ctx, debitSQL, d.TokenSHA256, d.AmountMicros, d.Product, d.Resource, mode).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		var tokenMode string
		err := tx.QueryRow(ctx, `SELECT mode FROM credit_tokens WHERE token_sha256 = $1`, d.TokenSHA256).Scan(&tokenMode)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return 0, ErrCreditUnknown
		case err != nil:
			return 0, err
		case tokenMode != mode:
			return 0, ErrCreditOtherMode
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
	Mode          string // the X402_MODE it was minted in
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
	err := s.write.QueryRow(ctx, `SELECT id, mode, balance_micros, created_at FROM credit_tokens WHERE token_sha256 = $1`,
		tokenSHA256).Scan(&id, &b.Mode, &b.BalanceMicros, &b.CreatedAt)
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
