package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Store is what billing needs of the store: the claim of a payment before
// it settles, the mark of one that failed, the contact outbox with its
// backoff, and prepaid credit.
type Store interface {
	ClaimPayment(ctx context.Context, p store.Payment) (int64, error)
	FailPayment(ctx context.Context, id int64) error
	QueueContact(ctx context.Context, m store.ContactMessage, pay store.ContactPayment, now time.Time, enqueue store.ContactEnqueueFunc) (int64, error)
	RefuseContact(ctx context.Context, agent string, now time.Time) (wait time.Duration, throttled bool, err error)
	BuyCredit(ctx context.Context, paymentID int64, transaction string, tokenSHA256 []byte) error
	CreditBalance(ctx context.Context, tokenSHA256 []byte) (store.CreditBalance, error)
}

// Collected is an x402 payment claimed (its nonce recorded) and settled,
// not yet granted: the caller records the grant in one transaction with
// the settlement (store.BuyCredit, store.QueueContact), by ID and
// Transaction.
type Collected struct {
	ID          int64
	Transaction string
	payment     x402.Payment
	settlement  x402.Settlement
}

// Collect takes the x402 payment of a request (its headers h) for req.
// ok is false when the request carries none. Every refusal is a 402
// offering req again, except a facilitator that cannot be reached (503).
func (s *Service) Collect(ctx context.Context, h http.Header, req x402.Requirement, product string) (p Collected, ok bool, err error) {
	pay, present, err := x402.FromRequest(h)
	if !present {
		return p, false, nil
	}
	if err := s.payable(); err != nil {
		return p, true, err
	}
	if err != nil {
		return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The payment header cannot be decoded; sign a new payment of the offer below.")
	}
	if err := x402.Check(pay, req, s.now()); err != nil {
		var m *x402.Mismatch
		if errors.As(err, &m) {
			return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The payment does not answer the offer: "+m.Reason+".")
		}
		return p, true, err
	}
	live := s.mode == Live
	if live {
		v, err := s.facilitator.Verify(ctx, pay, req)
		if err != nil {
			return p, true, s.facilitatorDown(err)
		}
		if !v.IsValid {
			return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The facilitator refused the payment: "+v.InvalidReason+".")
		}
	}
	id, err := s.store.ClaimPayment(ctx, store.Payment{ReplayKey: pay.Nonce(), Payer: pay.Payer(),
		AmountMicros: req.AmountMicro, Product: product, Resource: strings.TrimPrefix(req.Resource, s.baseURL)})
	if errors.Is(err, store.ErrPaymentReplayed) {
		return p, true, s.PaymentNeeded(req, apierror.PaymentReplayed, "This payment was presented before; a payment is accepted once. Sign a new one.")
	}
	if err != nil {
		return p, true, err
	}
	p = Collected{ID: id, payment: pay, Transaction: store.DevTransaction}
	if !live {
		p.settlement = x402.Settlement{Success: true, Transaction: store.DevTransaction, Network: req.Network.Name, Payer: pay.Payer()}
		return p, true, nil
	}
	st, err := s.facilitator.Settle(context.WithoutCancel(ctx), pay, req)
	if err != nil {
		// The outcome is unknown: the claim stays for an operator to
		// reconcile, and the nonce cannot be spent again here.
		return p, true, s.facilitatorDown(err)
	}
	if !st.Success {
		if err := s.store.FailPayment(ctx, id); err != nil {
			return p, true, err
		}
		return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The payment did not settle: "+st.ErrorReason+". Sign a new one.")
	}
	p.Transaction, p.settlement = st.Transaction, st
	return p, true, nil
}

// facilitatorDown is the 503 of a facilitator that did not answer; the
// cause goes to the request log, not to the client.
func (s *Service) facilitatorDown(err error) error {
	down := apierror.New(apierror.PaymentUnavailable, "The payment facilitator cannot be reached; retry later with a new payment.")
	down.Fault = true
	return fmt.Errorf("%w (%w)", down, err)
}

// SetReceipt writes the settlement response header of p into an answer's
// headers h.
func (p Collected) SetReceipt(h http.Header) {
	h.Set(p.payment.ResponseHeader(), x402.EncodeSettlement(p.settlement))
}

// ExposeHeaders lets a browser agent read the payment headers and
// Retry-After of a paid route's answer (CORS); h is the answer's headers.
func ExposeHeaders(h http.Header) {
	h.Set(echo.HeaderAccessControlExposeHeaders, strings.Join([]string{x402.HeaderRequiredV2,
		x402.HeaderPaymentResponseV2, x402.HeaderPaymentResponseV1, echo.HeaderRetryAfter}, ", "))
}
