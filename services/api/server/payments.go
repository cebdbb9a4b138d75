package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// x402 payments of the paid routes (POST /api/contact, POST /api/credito).
//
// Modes (contract 2.8, X402_MODE): live charges through the facilitator
// (verify, claim the payment's nonce in Postgres, settle, grant in one
// transaction with the settlement's record); dev simulates: a paid route
// still offers its 402 (PAYMENT-REQUIRED also on the answers it lets
// through), a well-formed payment is checked and its nonce claimed but
// nothing is verified or settled, and the agent contact lets unpaid calls
// through. homolog is the payment loop on base-sepolia: test USDC, so the
// loop closes without spending. dev_gate would be a configured test
// credential; this service has none, so it is false and grants nothing.

// devPayTo is the recipient a dev deployment without X402_PAY_TO offers.
const devPayTo = "0x0000000000000000000000000000000000000000"

// requirement is what a paid call at path costs.
func (s *Server) requirement(path string, micros int64, description string) x402.Requirement {
	payTo := s.cfg.X402PayTo
	if payTo == "" {
		payTo = devPayTo
	}
	return x402.Requirement{Network: x402.Networks[s.cfg.X402Network], AmountMicro: micros, PayTo: payTo,
		Resource: s.baseURL + path, Description: description}
}

// payable is nil when this deployment can take payments: a live one needs
// its receiving address (dev offers a placeholder and settles nothing).
func (s *Server) payable() error {
	if s.cfg.X402Mode == "live" && s.cfg.X402PayTo == "" {
		down := apierror.New(apierror.PaymentUnavailable,
			"Payments are not configured on this deployment (no receiving address); nothing was charged.")
		down.Fault = true // a live deployment without its address is misconfigured
		return down
	}
	return nil
}

// needPayment is the 402 asking for req, or the 503 of a deployment that
// cannot take payments.
func (s *Server) needPayment(req x402.Requirement, name, message string) error {
	if err := s.payable(); err != nil {
		return err
	}
	return apierror.PaymentNeeded(req, name, message)
}

// settledPayment is an x402 payment claimed (its nonce recorded) and
// settled, not yet granted: the caller records the grant in one
// transaction with the settlement (store.BuyCredit, store.QueueContact).
type settledPayment struct {
	id          int64
	transaction string
	payment     x402.Payment
	settlement  x402.Settlement
}

// collect takes the x402 payment of a request for req. ok is false when
// the request carries none. Every refusal is a 402 offering req again,
// except a facilitator that cannot be reached (503).
func (s *Server) collect(c echo.Context, req x402.Requirement, product string) (p settledPayment, ok bool, err error) {
	pay, present, err := x402.FromRequest(c.Request().Header)
	if !present {
		return p, false, nil
	}
	if err := s.payable(); err != nil {
		return p, true, err
	}
	if err != nil {
		return p, true, s.needPayment(req, apierror.PaymentInvalid, "The payment header cannot be decoded; sign a new payment of the offer below.")
	}
	if err := x402.Check(pay, req, s.now()); err != nil {
		var m *x402.Mismatch
		if errors.As(err, &m) {
			return p, true, s.needPayment(req, apierror.PaymentInvalid, "The payment does not answer the offer: "+m.Reason+".")
		}
		return p, true, err
	}
	ctx := c.Request().Context()
	live := s.cfg.X402Mode == "live"
	if live {
		v, err := s.facilitator.Verify(ctx, pay, req)
		if err != nil {
			return p, true, s.facilitatorDown(err)
		}
		if !v.IsValid {
			return p, true, s.needPayment(req, apierror.PaymentInvalid, "The facilitator refused the payment: "+v.InvalidReason+".")
		}
	}
	id, err := s.store.ClaimPayment(ctx, store.Payment{ReplayKey: pay.Nonce(), Payer: pay.Payer(),
		AmountMicros: req.AmountMicro, Product: product, Resource: strings.TrimPrefix(req.Resource, s.baseURL)})
	if errors.Is(err, store.ErrPaymentReplayed) {
		return p, true, s.needPayment(req, apierror.PaymentReplayed, "This payment was presented before; a payment is accepted once. Sign a new one.")
	}
	if err != nil {
		return p, true, err
	}
	p = settledPayment{id: id, payment: pay, transaction: store.DevTransaction}
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
		return p, true, s.needPayment(req, apierror.PaymentInvalid, "The payment did not settle: "+st.ErrorReason+". Sign a new one.")
	}
	p.transaction, p.settlement = st.Transaction, st
	return p, true, nil
}

// facilitatorDown is the 503 of a facilitator that did not answer; the
// cause goes to the request log, not to the client.
func (s *Server) facilitatorDown(err error) error {
	down := apierror.New(apierror.PaymentUnavailable, "The payment facilitator cannot be reached; retry later with a new payment.")
	down.Fault = true
	return fmt.Errorf("%w (%w)", down, err)
}

// settlementHeader writes the settlement response header of p.
func settlementHeader(c echo.Context, p settledPayment) {
	c.Response().Header().Set(p.payment.ResponseHeader(), x402.EncodeSettlement(p.settlement))
}

// exposePaymentHeaders lets a browser agent read the payment headers and
// Retry-After of a paid route's answer (CORS).
func exposePaymentHeaders(c echo.Context) {
	c.Response().Header().Set(echo.HeaderAccessControlExposeHeaders, strings.Join([]string{x402.HeaderRequiredV2,
		x402.HeaderPaymentResponseV2, x402.HeaderPaymentResponseV1, echo.HeaderRetryAfter}, ", "))
}
