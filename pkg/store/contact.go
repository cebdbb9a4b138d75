package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The contact outbox and the agent backoff (contract 3.4, 4.6). A message
// is a row written in the same transaction as what paid for it (a debit,
// a settled x402 payment, or the agent's free first message) and as its
// send job, so nothing is charged without a message queued.

// ErrContactFreeUsed is an agent whose free first message is spent.
var ErrContactFreeUsed = errors.New("store: the agent's free message is used")

// Contact paths, as recorded and answered.
const (
	ContactHuman       = "human"
	ContactAgentFree   = "agent_free"
	ContactAgentX402   = "agent_x402"
	ContactAgentCredit = "agent_credit"
	ContactAgentDev    = "agent_dev"
)

// ContactMessage is one message to queue (also kept as JSON with the x402
// payment that will pay for it, until it settles).
type ContactMessage struct {
	Path     string         `json:"path"`
	Agent    string         `json:"agent"` // the recognised agent; "" on the human path
	Name     string         `json:"name"`
	Email    string         `json:"email"`
	Message  string         `json:"message"`
	Proposal map[string]any `json:"proposal,omitempty"` // nil without tipo
}

// ContactPayment is what pays for a message: at most one of its fields.
// (A message paid by x402 is queued by GrantPayment, when its payment
// settles.)
type ContactPayment struct {
	Credit *Debit // a credit debit, taken in the transaction
	Free   bool   // the agent's free first message, claimed in the transaction
	// EndsBackoff clears the agent's refusals and wait in the transaction
	// (the caller decides which messages do: package billing's paid ones).
	// It never spends the free message.
	EndsBackoff bool
}

// ContactEnqueueFunc inserts the send job of message id in tx.
type ContactEnqueueFunc func(ctx context.Context, tx pgx.Tx, id int64) error

// QueueContact writes m with its payment and its send job in one
// transaction. It returns ErrContactFreeUsed, ErrCreditInsufficient,
// ErrCreditOtherMode or ErrCreditUnknown (nothing written) when the payment
// does not hold.
func (s *Store) QueueContact(ctx context.Context, m ContactMessage, pay ContactPayment, now time.Time, enqueue ContactEnqueueFunc) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var movementID *int64
		switch {
		case pay.Free:
			// One conditional statement: the free message is spent once per
			// agent, whatever else its row records (a paid message, a
			// refusal).
			tag, err := tx.Exec(ctx, `
				INSERT INTO contact_agents AS a (agent, first_at, free_used) VALUES ($1, $2, true)
				ON CONFLICT (agent) DO UPDATE SET free_used = true WHERE NOT a.free_used`, m.Agent, now)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return ErrContactFreeUsed
			}
		case pay.Credit != nil:
			mid, err := debit(ctx, tx, *pay.Credit)
			if err != nil {
				return err
			}
			movementID = &mid
		}
		var err error
		id, err = insertContact(ctx, tx, m, nil, movementID, pay.EndsBackoff, now, enqueue)
		return err
	})
	if err != nil && !errors.Is(err, ErrContactFreeUsed) && !errors.Is(err, ErrCreditInsufficient) &&
		!errors.Is(err, ErrCreditUnknown) && !errors.Is(err, ErrCreditOtherMode) {
		return 0, fmt.Errorf("store: queue contact: %w", err)
	}
	return id, err
}

// insertContact writes message m (paid by payment or movement, when set)
// and its send job inside tx; endsBackoff clears the agent's wait.
func insertContact(ctx context.Context, tx pgx.Tx, m ContactMessage, paymentID, movementID *int64, endsBackoff bool,
	now time.Time, enqueue ContactEnqueueFunc) (int64, error) {
	var proposal []byte
	if m.Proposal != nil {
		var err error
		if proposal, err = json.Marshal(m.Proposal); err != nil {
			return 0, err
		}
	}
	if endsBackoff {
		if _, err := tx.Exec(ctx, `
			INSERT INTO contact_agents (agent, first_at) VALUES ($1, $2)
			ON CONFLICT (agent) DO UPDATE SET refusals = 0, blocked_until = NULL`, m.Agent, now); err != nil {
			return 0, err
		}
	}
	var id int64
	if err := tx.QueryRow(ctx, `
		INSERT INTO contact_messages (path, agent, name, email, message, proposal, payment_id, movement_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		m.Path, m.Agent, m.Name, m.Email, m.Message, proposal, paymentID, movementID, now).Scan(&id); err != nil {
		return 0, err
	}
	return id, enqueue(ctx, tx, id)
}

// Contact backoff (contract 3.4): the wait starts at ContactBackoffStart
// and doubles with every refusal, capped at ContactBackoffMax.
const (
	ContactBackoffStart = time.Minute
	ContactBackoffMax   = time.Hour
)

// RefuseContact records an unpaid agent request past the free message at
// now. When the agent is within its backoff it returns throttled true and
// the wait left; otherwise it starts the next (doubled) wait and returns
// throttled false: the caller answers 402.
func (s *Store) RefuseContact(ctx context.Context, agent string, now time.Time) (wait time.Duration, throttled bool, err error) {
	var until time.Time
	err = s.write.QueryRow(ctx, `
		WITH up AS (
			INSERT INTO contact_agents AS a (agent, first_at, refusals, blocked_until)
			VALUES ($1, $2::timestamptz, 1, $2::timestamptz + $3::bigint * interval '1 second')
			ON CONFLICT (agent) DO UPDATE
			SET refusals = a.refusals + 1,
			    blocked_until = $2::timestamptz + LEAST($3::bigint << LEAST(a.refusals, 10), $4::bigint) * interval '1 second'
			WHERE a.blocked_until IS NULL OR a.blocked_until <= $2::timestamptz
			RETURNING false AS throttled, blocked_until
		)
		SELECT throttled, blocked_until FROM up
		UNION ALL
		SELECT true, blocked_until FROM contact_agents WHERE agent = $1 AND NOT EXISTS (SELECT 1 FROM up)`,
		agent, now, int64(ContactBackoffStart/time.Second), int64(ContactBackoffMax/time.Second)).Scan(&throttled, &until)
	if err != nil {
		return 0, false, fmt.Errorf("store: refuse contact: %w", err)
	}
	return until.Sub(now), throttled, nil
}

// PendingContact is a queued message to send.
type PendingContact struct {
	ID                         int64
	Path, Name, Email, Message string
	Proposal                   []byte
	CreatedAt                  time.Time
}

// SendContact locks message id for sending and calls send with it; when
// send succeeds the message is marked sent in the same transaction. A
// message already sent is not passed to send again (sent is false). The
// row lock makes concurrent attempts of the same job wait, not send twice.
func (s *Store) SendContact(ctx context.Context, id int64, send func(PendingContact) error) (sent bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var m PendingContact
		var sentAt *time.Time
		err := tx.QueryRow(ctx, `
			SELECT id, path, name, email, message, proposal, created_at, sent_at
			FROM contact_messages WHERE id = $1 FOR UPDATE`, id).
			Scan(&m.ID, &m.Path, &m.Name, &m.Email, &m.Message, &m.Proposal, &m.CreatedAt, &sentAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil || sentAt != nil {
			return err
		}
		if err := send(m); err != nil {
			return err
		}
		sent = true
		_, err = tx.Exec(ctx, `UPDATE contact_messages SET sent_at = now() WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: send contact %d: %w", id, err)
	}
	return sent, nil
}
