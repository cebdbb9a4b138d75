package store

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// x402 payments of the full variant (0011_payments.sql, 0024, 0025). A
// payment is claimed by its replay key (payer and EIP-3009 nonce) before
// it is settled, with everything needed to settle it again and to grant
// what it buys; it is then settled and granted in one transaction, once,
// by whoever gets the facilitator's answer first (the request, the same
// payment sent again, the settle_payment job, an operator). Every state
// change is one conditional statement on the row's state.

// Payment states (x402_payments.state).
const (
	PaymentClaimed  = "claimed"  // recorded; a settle is under way
	PaymentUnknown  = "unknown"  // a settle's answer was lost: the money may have moved
	PaymentSettled  = "settled"  // settled and granted
	PaymentFailed   = "failed"   // the facilitator refused it; nothing moved
	PaymentRefunded = "refunded" // returned by hand by an operator, recorded here
)

// Payment modes (X402_MODE), recorded on payments, tokens and movements.
const (
	ModeLive = "live"
	ModeDev  = "dev"
)

// ErrPaymentNotPending is a settle, grant, failure or refund of a payment
// that is already final (someone else finished it) or does not exist.
var ErrPaymentNotPending = errors.New("store: payment is not pending")

// PaymentClaim is an x402 payment to claim before it is settled.
type PaymentClaim struct {
	ReplayKey    string // payer and EIP-3009 nonce (x402.SignedPayment.Nonce)
	Payer        string
	AmountMicros int64
	Product      string
	Resource     string
	Mode         string // ModeLive or ModeDev; ModeLive when ""
	Doc          []byte // the signed payment document, as the client sent it
	Version      int    // x402 protocol version (1 when 0)
	Requirement  []byte // what was offered, JSON
	Grant        []byte // what it buys, JSON (GrantSpec)
	Client       string // the network block it came from
}

// GrantSpec is what a payment buys, kept with it until it settles.
type GrantSpec struct {
	Kind    string          `json:"kind"`              // GrantCredit or GrantContact
	Message *ContactMessage `json:"message,omitempty"` // GrantContact: the message to queue
}

// Grant kinds.
const (
	GrantCredit  = "credit"
	GrantContact = "contact"
)

func modeOr(m string) string {
	if m == "" {
		return ModeLive
	}
	return m
}

// ClaimPayment records p as claimed and returns its id; a replay key seen
// before is ErrPaymentReplayed. enqueue, when set, is called in the same
// transaction with the new id (the settle_payment job that finishes the
// payment should the request not).
func (s *Store) ClaimPayment(ctx context.Context, p PaymentClaim, enqueue func(ctx context.Context, tx pgx.Tx, id int64) error) (int64, error) {
	version := p.Version
	if version == 0 {
		version = 1
	}
	var docSum []byte
	if p.Doc != nil {
		sum := sha256.Sum256(p.Doc)
		docSum = sum[:]
	}
	var id int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO x402_payments (replay_key, payer, amount_micros, product, resource, mode, doc, doc_sha256,
				version, requirement, grant_spec, client)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (replay_key) DO NOTHING
			RETURNING id`, p.ReplayKey, p.Payer, p.AmountMicros, p.Product, p.Resource, modeOr(p.Mode), p.Doc, docSum,
			version, jsonOrNil(p.Requirement), jsonOrNil(p.Grant), p.Client).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrPaymentReplayed
		}
		if err != nil || enqueue == nil {
			return err
		}
		return enqueue(ctx, tx, id)
	})
	if errors.Is(err, ErrPaymentReplayed) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("store: claim payment: %w", err)
	}
	return id, nil
}

func jsonOrNil(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}

// PaymentRecord is a stored payment.
type PaymentRecord struct {
	ID           int64
	ReplayKey    string
	Payer        string
	AmountMicros int64
	Product      string
	Resource     string
	Mode         string
	State        string
	Doc          []byte // nil once final
	DocSHA256    []byte
	Version      int
	Requirement  []byte
	Grant        GrantSpec
	Client       string
	Transaction  string
	TokenSealed  []byte // a credit purchase's token, sealed (0025)
	MessagePath  string // a contact payment's message path, once queued
	Attempts     int
	LastError    string
	RefundNote   string
	CreatedAt    time.Time
	SettledAt    *time.Time
}

const paymentColumns = `p.id, p.replay_key, p.payer, p.amount_micros, p.product, p.resource, p.mode, p.state, p.doc,
	p.doc_sha256, p.version, coalesce(p.requirement::text, ''), coalesce(p.grant_spec::text, ''), p.client, p.transaction,
	p.token_sealed, coalesce((SELECT m.path FROM contact_messages m WHERE m.payment_id = p.id LIMIT 1), ''),
	p.attempts, p.last_error, p.refund_note, p.created_at, p.settled_at`

func scanPayment(row pgx.Row) (PaymentRecord, error) {
	var r PaymentRecord
	var requirement, grant string
	err := row.Scan(&r.ID, &r.ReplayKey, &r.Payer, &r.AmountMicros, &r.Product, &r.Resource, &r.Mode, &r.State, &r.Doc,
		&r.DocSHA256, &r.Version, &requirement, &grant, &r.Client, &r.Transaction, &r.TokenSealed, &r.MessagePath,
		&r.Attempts, &r.LastError, &r.RefundNote, &r.CreatedAt, &r.SettledAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, ErrNotFound
	}
	if err != nil {
		return r, err
	}
	r.Requirement = []byte(requirement)
	if grant != "" {
		if err := json.Unmarshal([]byte(grant), &r.Grant); err != nil {
			return r, fmt.Errorf("store: payment %d grant: %w", r.ID, err)
		}
	}
	return r, nil
}

// PaymentByKey returns the payment of a replay key, or ErrNotFound.
func (s *Store) PaymentByKey(ctx context.Context, replayKey string) (PaymentRecord, error) {
	r, err := scanPayment(s.write.QueryRow(ctx, `SELECT `+paymentColumns+` FROM x402_payments p WHERE p.replay_key = $1`, replayKey))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return r, fmt.Errorf("store: payment by key: %w", err)
	}
	return r, err
}

// PaymentByID returns payment id, or ErrNotFound.
func (s *Store) PaymentByID(ctx context.Context, id int64) (PaymentRecord, error) {
	r, err := scanPayment(s.write.QueryRow(ctx, `SELECT `+paymentColumns+` FROM x402_payments p WHERE p.id = $1`, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return r, fmt.Errorf("store: payment %d: %w", id, err)
	}
	return r, err
}

// MaxPendingListed bounds PendingPayments.
const MaxPendingListed = 500

// PendingPayments lists the payments still claimed or unknown, oldest
// first, at most limit (MaxPendingListed when 0 or above).
func (s *Store) PendingPayments(ctx context.Context, limit int) ([]PaymentRecord, error) {
	if limit <= 0 || limit > MaxPendingListed {
		limit = MaxPendingListed
	}
	rows, err := s.write.Query(ctx, `SELECT `+paymentColumns+` FROM x402_payments p
		WHERE p.state IN ('claimed', 'unknown') ORDER BY p.created_at, p.id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: pending payments: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PaymentRecord, error) { return scanPayment(r) })
	if err != nil {
		return nil, fmt.Errorf("store: pending payments: %w", err)
	}
	return out, nil
}

// MarkPaymentUnknown records a settle of pending payment id whose answer
// was lost (cause, cut to 500 characters): the state becomes unknown.
func (s *Store) MarkPaymentUnknown(ctx context.Context, id int64, cause string) error {
	_, err := s.write.Exec(ctx, `
		UPDATE x402_payments SET state = 'unknown', attempts = attempts + 1, last_error = left($2, 500)
		WHERE id = $1 AND state IN ('claimed', 'unknown')`, id, cause)
	if err != nil {
		return fmt.Errorf("store: payment %d unknown: %w", id, err)
	}
	return nil
}

// FailPayment marks a pending payment whose settlement the facilitator
// refused. Its replay key stays used: the client signs a new authorization.
func (s *Store) FailPayment(ctx context.Context, id int64) error {
	_, err := s.write.Exec(ctx, `UPDATE x402_payments SET state = 'failed', doc = NULL, attempts = attempts + 1
		WHERE id = $1 AND state IN ('claimed', 'unknown')`, id)
	if err != nil {
		return fmt.Errorf("store: fail payment %d: %w", id, err)
	}
	return nil
}

// RefundPayment records that an operator returned pending payment id by
// hand (note says how: the refund's transaction, say); nothing is granted
// and the payment is final. ErrPaymentNotPending when it is not pending.
func (s *Store) RefundPayment(ctx context.Context, id int64, note string) error {
	tag, err := s.write.Exec(ctx, `UPDATE x402_payments SET state = 'refunded', doc = NULL, refund_note = left($2, 500)
		WHERE id = $1 AND state IN ('claimed', 'unknown')`, id, note)
	if err != nil {
		return fmt.Errorf("store: refund payment %d: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return ErrPaymentNotPending
	}
	return nil
}

// PaymentGrant is what GrantPayment grants with a settlement.
type PaymentGrant struct {
	// A credit purchase: the new token, by its SHA-256, and sealed.
	TokenSHA256 []byte
	TokenSealed []byte
	// A contact payment: the message's send job, and the time it is
	// queued at.
	Enqueue ContactEnqueueFunc
	Now     time.Time
}

// GrantPayment marks pending payment id settled by transaction and grants
// what it buys (its GrantSpec), in one transaction: a credit token holding
// the payment's amount with its credit movement, or its contact message
// with its send job (ending the agent's backoff). A payment already final
// is ErrPaymentNotPending, and nothing is granted twice.
func (s *Store) GrantPayment(ctx context.Context, id int64, transaction string, g PaymentGrant) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var amount int64
		var product, resource, mode, grant string
		err := tx.QueryRow(ctx, `
			UPDATE x402_payments SET state = 'settled', transaction = $2, settled_at = now(), doc = NULL, token_sealed = $3
			WHERE id = $1 AND state IN ('claimed', 'unknown')
			RETURNING amount_micros, product, resource, mode, coalesce(grant_spec::text, '{"kind":"credit"}')`,
			id, transaction, g.TokenSealed).Scan(&amount, &product, &resource, &mode, &grant)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrPaymentNotPending
		}
		if err != nil {
			return err
		}
		var spec GrantSpec
		if err := json.Unmarshal([]byte(grant), &spec); err != nil {
			return err
		}
		switch spec.Kind {
		case GrantCredit:
			if len(g.TokenSHA256) == 0 {
				return errors.New("a credit purchase needs its token")
			}
			_, err := tx.Exec(ctx, `
				WITH t AS (
					INSERT INTO credit_tokens (token_sha256, balance_micros, mode) VALUES ($2, $3, $6) RETURNING id
				)
				INSERT INTO credit_movements (token_id, kind, amount_micros, product, resource, payment_id, mode)
				SELECT t.id, 'credit', $3, $4, $5, $1, $6 FROM t`, id, g.TokenSHA256, amount, product, resource, mode)
			return err
		case GrantContact:
			if spec.Message == nil || g.Enqueue == nil {
				return errors.New("a contact payment needs its message and its send job")
			}
			now := g.Now
			if now.IsZero() {
				now = time.Now()
			}
			_, err := insertContact(ctx, tx, *spec.Message, &id, nil, true, now, g.Enqueue)
			return err
		}
		return fmt.Errorf("unknown grant %q", spec.Kind)
	})
	if errors.Is(err, ErrPaymentNotPending) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: grant payment %d: %w", id, err)
	}
	return nil
}

// BuyCredit settles pending credit purchase paymentID by transaction and
// creates its token (by the SHA-256 of its secret), unsealed: the grant of
// GrantPayment for callers that show the token themselves.
func (s *Store) BuyCredit(ctx context.Context, paymentID int64, transaction string, tokenSHA256 []byte) error {
	return s.GrantPayment(ctx, paymentID, transaction, PaymentGrant{TokenSHA256: tokenSHA256})
}
