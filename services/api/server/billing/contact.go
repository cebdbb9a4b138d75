package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// contactResource is the paid route of an agent's message.
const contactResource = "/api/contact"

// QueueAgentContact decides how an agent's message m (m.Agent set) is paid
// and queues it with its payment: with the credit token the request
// presents, else its x402 payment, else the agent's free first message
// (which a paid message never spends); past that, a dev deployment lets it
// through unpaid (showing the 402 it would be), and a live one refuses it:
// 402, or 429 within the agent's backoff, both offering the payment. in is
// the request's headers, out the answer's (the settlement, or dev's
// PAYMENT-REQUIRED); client is the request's network block; path is how the
// message was paid (store.ContactAgent*).
func (s *Service) QueueAgentContact(ctx context.Context, in, out http.Header, m store.ContactMessage, now time.Time,
	client string, enqueue store.ContactEnqueueFunc) (path string, err error) {
	req := s.ContactOffer()
	queue := func(p string, pay store.ContactPayment) (string, error) {
		m.Path = p
		// A paid message (and dev's, which stands for one) ends the
		// agent's backoff; the free one has none to end.
		pay.EndsBackoff = !pay.Free
		_, err := s.store.QueueContact(ctx, m, pay, now, enqueue)
		return p, err
	}
	if token, ok := CreditToken(in); ok {
		p, err := queue(store.ContactAgentCredit, store.ContactPayment{Credit: &store.Debit{TokenSHA256: CreditHash(token),
			Mode: string(s.mode), AmountMicros: ContactPriceMicros, Product: wire.ProductID, Resource: contactResource}})
		switch {
		case errors.Is(err, store.ErrCreditUnknown):
			return "", s.PaymentNeeded(req, apierror.PaymentInvalid, "The credit token is unknown; send a valid one, or pay the offer below with x402.")
		case errors.Is(err, store.ErrCreditOtherMode):
			return "", s.PaymentNeeded(req, apierror.PaymentInvalid, fmt.Sprintf(
				"This credit token was not minted in %s mode (dev credit is simulated: nothing was paid for it); it pays nothing here. Pay the offer below with x402.", s.mode))
		case errors.Is(err, store.ErrCreditInsufficient):
			return "", s.PaymentNeeded(req, apierror.PaymentRequired, "The credit does not cover "+wire.USD(ContactPriceMicros)+" USD; buy more at POST /api/credito or pay with x402.")
		}
		return p, err
	}
	paidMessage := m
	paidMessage.Path = store.ContactAgentX402
	paid, present, err := s.Pay(ctx, in, req, store.GrantSpec{Kind: store.GrantContact, Message: &paidMessage}, client)
	if err != nil {
		return "", err
	}
	if present {
		paid.SetReceipt(out)
		return store.ContactAgentX402, nil
	}
	p, err := queue(store.ContactAgentFree, store.ContactPayment{Free: true})
	if !errors.Is(err, store.ErrContactFreeUsed) {
		return p, err
	}
	if s.mode == Dev {
		// dev lets the call through unpaid, showing the 402 it would be.
		p, err := queue(store.ContactAgentDev, store.ContactPayment{})
		if err == nil {
			out.Set(x402.HeaderRequiredV2, x402.RequiredHeader(req, "dev mode: this call would cost "+wire.USD(ContactPriceMicros)+" USD"))
		}
		return p, err
	}
	return "", s.refuseContact(ctx, req, m.Agent, now)
}

// ContactOffer is what one agent message costs.
func (s *Service) ContactOffer() x402.Requirement {
	return s.Offer(contactResource, ContactPriceMicros, "OKF Index: one agent contact message")
}

// refuseContact is the answer to an unpaid message past the free one: 429
// within the agent's backoff, else 402 (and the next, doubled, wait
// starts). Both carry the offer, so a stock x402 client pays at once.
func (s *Service) refuseContact(ctx context.Context, req x402.Requirement, agent string, now time.Time) error {
	if err := s.payable(); err != nil {
		return err
	}
	wait, throttled, err := s.store.RefuseContact(ctx, agent, now)
	if err != nil {
		return err
	}
	if throttled {
		e := apierror.New(apierror.ContactBackoff, fmt.Sprintf(
			"The free message is used and this agent is in its backoff: pay the offer below (x402) or with credit now, or retry unpaid in %s s.",
			respond.RetryAfterSeconds(wait))).After(wait)
		e.Offer = &req
		return e
	}
	return s.PaymentNeeded(req, apierror.PaymentRequired, "The free message is used: a message costs "+wire.USD(ContactPriceMicros)+
		" USD. Pay the offer below with x402 (X-PAYMENT or PAYMENT-SIGNATURE) or send a credit token, and repeat the call.")
}
