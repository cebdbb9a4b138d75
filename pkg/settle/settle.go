// Package settle finishes an x402 payment exactly once: it asks the
// facilitator to settle the payment's signed document (the facilitator
// spends an EIP-3009 authorization at most once, so asking again after a
// lost answer learns the first outcome) and grants what the payment buys
// in the same transaction as the settlement's record (store.GrantPayment),
// once, whoever gets there first: the request that took the payment, the
// same payment sent again, the settle_payment job, or an operator.
//
// It also owns the prepaid credit token's secret: how a token is made, the
// hash the store keeps, and the sealed copy that lets the holder of the
// signed payment be shown the token again.
package settle

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
)

// Store is what settling needs of the store.
type Store interface {
	PaymentByID(ctx context.Context, id int64) (store.PaymentRecord, error)
	MarkPaymentUnknown(ctx context.Context, id int64, cause string) error
	FailPayment(ctx context.Context, id int64) error
	GrantPayment(ctx context.Context, id int64, transaction string, g store.PaymentGrant) error
}

// Settler finishes pending payments.
type Settler struct {
	Store       Store
	Facilitator *x402.Facilitator
	// Enqueue inserts a granted contact message's send job in the grant's
	// transaction.
	Enqueue store.ContactEnqueueFunc
	Now     func() time.Time // time.Now when nil
}

// Errors of Settle.
var (
	// ErrLost is a settle whose answer did not come (the facilitator could
	// not be reached, timed out, or answered out of protocol): the money
	// may have moved, so the payment stays pending (unknown) and is asked
	// again later.
	ErrLost = errors.New("settle: the facilitator's answer was lost")
	// ErrNeedsOperator is a payment the facilitator now calls spent after
	// an earlier answer was lost: it may have moved the money the first
	// time, so only an operator, reading the chain, can settle or refund
	// it (okfctl payments).
	ErrNeedsOperator = errors.New("settle: the payment needs an operator")
)

// Refused is a payment the facilitator refused to settle: nothing moved.
type Refused struct{ Reason string }

func (r *Refused) Error() string { return "settle: refused: " + r.Reason }

// Outcome is a payment finished (or found finished).
type Outcome struct {
	Record store.PaymentRecord // as stored after the settle
	// Token is a credit purchase's token when this call granted it; the
	// caller of a payment finished before opens Record.TokenSealed.
	Token string
}

// Settlement is the settlement response document of a settled payment,
// in the form of its protocol version.
func Settlement(r store.PaymentRecord) x402.Settlement {
	s := x402.Settlement{Success: r.State == store.PaymentSettled, Transaction: r.Transaction, Payer: r.Payer}
	var req x402.Requirement
	if json.Unmarshal(r.Requirement, &req) == nil {
		s.Network = req.Network.NetworkFor(r.Version)
	}
	return s
}

// Settle finishes pending payment id: a dev payment is granted at once
// (nothing is settled); a live one is settled with the facilitator, then
// granted. A payment already final is returned as it is. The errors are
// ErrLost, ErrNeedsOperator, *Refused, or the store's.
func (s *Settler) Settle(ctx context.Context, id int64) (Outcome, error) {
	rec, err := s.Store.PaymentByID(ctx, id)
	if err != nil {
		return Outcome{}, err
	}
	if rec.State != store.PaymentClaimed && rec.State != store.PaymentUnknown {
		return Outcome{Record: rec}, nil
	}
	pay, err := x402.DecodeDocument(rec.Doc)
	if err != nil {
		return Outcome{Record: rec}, fmt.Errorf("settle: payment %d: %w", id, err)
	}
	transaction := store.DevTransaction
	if rec.Mode == store.ModeLive {
		var req x402.Requirement
		if err := json.Unmarshal(rec.Requirement, &req); err != nil {
			return Outcome{Record: rec}, fmt.Errorf("settle: payment %d requirement: %w", id, err)
		}
		st, err := s.Facilitator.Settle(ctx, pay, req)
		if err != nil {
			if err := s.Store.MarkPaymentUnknown(context.WithoutCancel(ctx), id, err.Error()); err != nil {
				return Outcome{Record: rec}, err
			}
			return Outcome{Record: rec}, fmt.Errorf("%w: %w", ErrLost, err)
		}
		if !st.Success {
			if rec.State == store.PaymentUnknown && strings.Contains(strings.ToLower(st.ErrorReason), "nonce") {
				// Spent, by the first settle whose answer was lost or by
				// someone else: the chain says which.
				_ = s.Store.MarkPaymentUnknown(context.WithoutCancel(ctx), id, "after a lost answer the facilitator says: "+st.ErrorReason)
				return Outcome{Record: rec}, fmt.Errorf("%w: %s", ErrNeedsOperator, st.ErrorReason)
			}
			if err := s.Store.FailPayment(context.WithoutCancel(ctx), id); err != nil {
				return Outcome{Record: rec}, err
			}
			return Outcome{Record: rec}, &Refused{Reason: st.ErrorReason}
		}
		transaction = st.Transaction
	}
	return s.Grant(ctx, rec, pay, transaction)
}

// Grant records pending payment rec (whose signed document is pay) settled
// by transaction and grants what it buys. Someone else's grant first is
// not an error: the payment as they left it is returned.
func (s *Settler) Grant(ctx context.Context, rec store.PaymentRecord, pay x402.SignedPayment, transaction string) (Outcome, error) {
	ctx = context.WithoutCancel(ctx) // the money moved: record it whatever the client does
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	g := store.PaymentGrant{Enqueue: s.Enqueue, Now: now()}
	var token string
	if rec.Grant.Kind != store.GrantContact {
		token = NewToken()
		sealed, err := Seal(token, pay.Signature())
		if err != nil {
			return Outcome{Record: rec}, err
		}
		g.TokenSHA256, g.TokenSealed = Hash(token), sealed
	}
	err := s.Store.GrantPayment(ctx, rec.ID, transaction, g)
	if err != nil && !errors.Is(err, store.ErrPaymentNotPending) {
		return Outcome{Record: rec}, err
	}
	if errors.Is(err, store.ErrPaymentNotPending) {
		token = ""
	}
	after, err := s.Store.PaymentByID(ctx, rec.ID)
	if err != nil {
		return Outcome{Record: rec}, err
	}
	return Outcome{Record: after, Token: token}, nil
}

// A credit token is TokenPrefix and 32 random bytes, base64url without
// padding (43 characters).
const (
	TokenPrefix = "cred_"
	TokenLen    = len(TokenPrefix) + 43
)

// NewToken is a new credit token.
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// Hash is the stored form of a credit token.
func Hash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// sealKey is the key a token is sealed under: derived from the payment's
// signature, which the store drops once the payment is final.
func sealKey(signature []byte) ([]byte, error) {
	if len(signature) != 65 {
		return nil, errors.New("settle: a seal needs the payment's 65-byte signature")
	}
	sum := sha256.Sum256(append([]byte("okf credit token seal v1\x00"), signature...))
	return sum[:], nil
}

// Seal encrypts token (AES-256-GCM) under the payment signature's key.
func Seal(token string, signature []byte) ([]byte, error) {
	key, err := sealKey(signature)
	if err != nil {
		return nil, err
	}
	gcm, err := newGCM(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, gcm.NonceSize())
	_, _ = rand.Read(nonce)
	return gcm.Seal(nonce, nonce, []byte(token), nil), nil
}

// Open is the token Seal sealed under signature.
func Open(sealed, signature []byte) (string, error) {
	key, err := sealKey(signature)
	if err != nil {
		return "", err
	}
	gcm, err := newGCM(key)
	if err != nil {
		return "", err
	}
	if len(sealed) < gcm.NonceSize() {
		return "", errors.New("settle: sealed token out of shape")
	}
	plain, err := gcm.Open(nil, sealed[:gcm.NonceSize()], sealed[gcm.NonceSize():], nil)
	if err != nil {
		return "", errors.New("settle: the token does not open with this payment")
	}
	return string(plain), nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
