package billing

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Store is what billing needs of the store: payments (claim with the
// settle job, find again, settle and grant: package settle), the contact
// outbox with its backoff, and prepaid credit.
type Store interface {
	settle.Store
	ClaimPayment(ctx context.Context, p store.PaymentClaim, enqueue func(context.Context, pgx.Tx, int64) error) (int64, error)
	PaymentByKey(ctx context.Context, replayKey string) (store.PaymentRecord, error)
	QueueContact(ctx context.Context, m store.ContactMessage, pay store.ContactPayment, now time.Time, enqueue store.ContactEnqueueFunc) (int64, error)
	RefuseContact(ctx context.Context, agent string, now time.Time) (wait time.Duration, throttled bool, err error)
	CreditBalance(ctx context.Context, tokenSHA256 []byte) (store.CreditBalance, error)
}

// Paid is an x402 payment settled and granted: now, or before (the same
// payment sent again).
type Paid struct {
	Record store.PaymentRecord
	// Token is a credit purchase's token.
	Token   string
	payment x402.SignedPayment
}

// SetReceipt writes the settlement response header of p into an answer's
// headers h.
func (p Paid) SetReceipt(h http.Header) {
	h.Set(p.payment.ResponseHeader(), x402.EncodeSettlement(settle.Settlement(p.Record)))
}

// Pay takes the x402 payment of a request (its headers h, its client) for
// req, buying grant. ok is false when the request carries none. A payment
// seen before is resumed: settled if it is still pending, and answered with
// what it bought. Every refusal is a 402 offering req again, except a
// settlement whose answer has not come (503 with Retry-After: send the same
// payment again).
func (s *Service) Pay(ctx context.Context, h http.Header, req x402.Requirement, grant store.GrantSpec, client string) (p Paid, ok bool, err error) {
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
	// The authorization's validity is the chain's, so it is judged by the
	// wall clock, not the service's (test) clock.
	if err := x402.Check(pay, req, time.Now()); err != nil {
		var m *x402.Mismatch
		if errors.As(err, &m) {
			return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The payment does not answer the offer: "+m.Reason+".")
		}
		return p, true, err
	}
	budget, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	if rec, err := s.store.PaymentByKey(ctx, pay.Nonce()); err == nil {
		return s.resume(budget, rec, pay, req, client)
	} else if !errors.Is(err, store.ErrNotFound) {
		return p, true, err
	}
	if s.mode == Live {
		v, err := s.facilitator.Verify(budget, pay, req)
		if err != nil {
			return p, true, facilitatorDown(err)
		}
		if !v.IsValid {
			return p, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The facilitator refused the payment: "+v.InvalidReason+".")
		}
	}
	reqJSON, _ := json.Marshal(req)
	grantJSON, err := json.Marshal(grant)
	if err != nil {
		return p, true, err
	}
	id, err := s.store.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: pay.Nonce(), Payer: pay.Payer(),
		AmountMicros: req.AmountMicro, Product: wire.ProductID, Resource: strings.TrimPrefix(req.Resource, s.baseURL),
		Mode: string(s.mode), Doc: pay.Raw, Version: pay.Version, Requirement: reqJSON, Grant: grantJSON, Client: client},
		s.enqueueSettle)
	if errors.Is(err, store.ErrPaymentReplayed) {
		// The same payment, sent twice at once: finish it as the other does.
		rec, err := s.store.PaymentByKey(ctx, pay.Nonce())
		if err != nil {
			return p, true, err
		}
		return s.resume(budget, rec, pay, req, client)
	}
	if err != nil {
		return p, true, err
	}
	out, err := s.settler.Settle(budget, id)
	return s.finish(out, err, pay, req)
}

// resume answers a payment sent again: the same signed document, for the
// same call, in this mode.
func (s *Service) resume(ctx context.Context, rec store.PaymentRecord, pay x402.SignedPayment, req x402.Requirement, client string) (Paid, bool, error) {
	sum := sha256.Sum256(pay.Raw)
	switch {
	case rec.Mode != string(s.mode):
		return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentInvalid, fmt.Sprintf(
			"This payment was taken by a deployment in %s mode, where nothing is settled for real; it buys nothing in %s mode. Sign a new payment of the offer below.",
			rec.Mode, s.mode))
	case !bytes.Equal(rec.DocSHA256, sum[:]):
		return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentReplayed,
			"This authorization's nonce was used by another payment; a payment is accepted once. Sign a new one.")
	case rec.Resource != strings.TrimPrefix(req.Resource, s.baseURL) || rec.AmountMicros != req.AmountMicro:
		return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentReplayed,
			"This payment paid for "+rec.Resource+"; a payment is accepted once, for the call it was made for. Sign a new one.")
	}
	otherClient := rec.Grant.Kind != store.GrantContact && rec.Client != client
	switch rec.State {
	case store.PaymentClaimed, store.PaymentUnknown:
		out, err := s.settler.Settle(ctx, rec.ID)
		if otherClient && err == nil {
			// Settled for the client that paid; its token is not shown here.
			return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentReplayed,
				"This payment belongs to another client; its credit token is shown only to the client that paid. Sign a new payment to buy credit.")
		}
		return s.finish(out, err, pay, req)
	case store.PaymentSettled:
		if otherClient {
			return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentReplayed,
				"This payment was settled and its credit token shown to the client that paid; it is shown again only to that client. Sign a new payment to buy more.")
		}
		return s.finish(settle.Outcome{Record: rec}, nil, pay, req)
	case store.PaymentRefunded:
		return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentReplayed, "This payment was refunded by the operator; it buys nothing. Sign a new one.")
	}
	return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "This payment did not settle; sign a new one.")
}

// finish is the answer of a settle: the payment granted, or why not.
func (s *Service) finish(out settle.Outcome, err error, pay x402.SignedPayment, req x402.Requirement) (Paid, bool, error) {
	var refused *settle.Refused
	switch {
	case errors.As(err, &refused):
		return Paid{}, true, s.PaymentNeeded(req, apierror.PaymentInvalid, "The payment did not settle: "+refused.Reason+". Sign a new one.")
	case errors.Is(err, settle.ErrNeedsOperator):
		down := apierror.New(apierror.PaymentUnavailable,
			"This payment's settlement is being reconciled by the operator with the chain; nothing more will be charged. Send the same payment again later to receive what it bought, or the operator refunds it.").
			After(time.Hour)
		down.Fault = true
		return Paid{}, true, fmt.Errorf("%w (%w)", down, err)
	case errors.Is(err, settle.ErrLost), errors.Is(err, context.DeadlineExceeded):
		return Paid{}, true, settling(err)
	case err != nil:
		return Paid{}, true, err
	}
	p := Paid{Record: out.Record, Token: out.Token, payment: pay}
	if out.Record.State != store.PaymentSettled {
		return Paid{}, true, settling(fmt.Errorf("payment %d is %s", out.Record.ID, out.Record.State))
	}
	if out.Record.Grant.Kind != store.GrantContact && p.Token == "" {
		token, err := settle.Open(out.Record.TokenSealed, pay.Signature())
		if err != nil {
			return Paid{}, true, err
		}
		p.Token = token
	}
	return p, true, nil
}

// settling is the 503 of a payment recorded whose settlement answer has
// not come: it is settled once, later, and the same payment sent again
// receives what it bought.
func settling(cause error) error {
	down := apierror.New(apierror.PaymentUnavailable, fmt.Sprintf(
		"The payment is recorded but the facilitator has not confirmed its settlement yet. Do not sign a new payment: it will be settled once "+
			"(it is asked again in the background until it answers) and what it buys granted once. Send the same request with the same payment "+
			"again after %d seconds to receive the result.", int(resumeAfter/time.Second))).After(resumeAfter)
	down.Fault = true
	return fmt.Errorf("%w (%w)", down, cause)
}

// facilitatorDown is the 503 of a facilitator that did not answer before
// anything was recorded; the cause goes to the request log, not to the
// client.
func facilitatorDown(err error) error {
	down := apierror.New(apierror.PaymentUnavailable,
		"The payment facilitator cannot be reached; nothing was recorded or charged. Retry after Retry-After seconds (the same payment is still good while it is valid).").
		After(resumeAfter)
	down.Fault = true
	return fmt.Errorf("%w (%w)", down, err)
}

// ExposeHeaders lets a browser agent read the payment headers and
// Retry-After of a paid route's answer (CORS); h is the answer's headers.
func ExposeHeaders(h http.Header) {
	h.Set(echo.HeaderAccessControlExposeHeaders, strings.Join([]string{x402.HeaderRequiredV2,
		x402.HeaderPaymentResponseV2, x402.HeaderPaymentResponseV1, echo.HeaderRetryAfter}, ", "))
}
