package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// contactResource is the paid route of an agent's message.
const contactResource = "/api/contact"

// QueueAgentContact decides how an agent's message m (m.Agent set) is paid
// and queues it with its payment: with the credit token the request
// presents, else its x402 payment, else the agent's free first message;
// past that, a dev deployment lets it through unpaid (showing the 402 it
// would be), and a live one refuses it: 402, or 429 within the agent's
// backoff. in is the request's headers, out the answer's (the settlement,
// or dev's PAYMENT-REQUIRED); path is how the message was paid
// (store.ContactAgent*).
func (s *Service) QueueAgentContact(ctx context.Context, in, out http.Header, m store.ContactMessage, now time.Time,
	enqueue store.ContactEnqueueFunc) (path string, err error) {
	req := s.Offer(contactResource, ContactPriceMicros, "OKF Index: one agent contact message")
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
			AmountMicros: ContactPriceMicros, Product: ProductID, Resource: contactResource}})
		switch {
		case errors.Is(err, store.ErrCreditUnknown):
			return "", InvalidCredit("The credit token is unknown.")
		case errors.Is(err, store.ErrCreditInsufficient):
			return "", s.PaymentNeeded(req, apierror.PaymentRequired, "The credit does not cover "+USD(ContactPriceMicros)+" USD; buy more at POST /api/credito or pay with x402.")
		}
		return p, err
	}
	paid, present, err := s.Collect(ctx, in, req, ProductID)
	if err != nil {
		return "", err
	}
	if present {
		p, err := queue(store.ContactAgentX402, store.ContactPayment{PaymentID: paid.ID, Tx: paid.Transaction})
		if err == nil {
			paid.SetReceipt(out)
		}
		return p, err
	}
	p, err := queue(store.ContactAgentFree, store.ContactPayment{Free: true})
	if !errors.Is(err, store.ErrContactFreeUsed) {
		return p, err
	}
	if s.mode == Dev {
		// dev lets the call through unpaid, showing the 402 it would be.
		p, err := queue(store.ContactAgentDev, store.ContactPayment{})
		if err == nil {
			out.Set(x402.HeaderRequiredV2, x402.RequiredHeader(req, "dev mode: this call would cost "+USD(ContactPriceMicros)+" USD"))
		}
		return p, err
	}
	return "", s.refuseContact(ctx, req, m.Agent, now)
}

// refuseContact is the answer to an unpaid message past the free one: 429
// within the agent's backoff, else 402 (and the next, doubled, wait starts).
func (s *Service) refuseContact(ctx context.Context, req x402.Requirement, agent string, now time.Time) error {
	wait, throttled, err := s.store.RefuseContact(ctx, agent, now)
	if err != nil {
		return err
	}
	if throttled {
		return apierror.New(apierror.ContactBackoff,
			fmt.Sprintf("The free message is used and this agent is in its backoff; pay (x402 or credit) or retry in %s s.", respond.RetryAfterSeconds(wait))).After(wait)
	}
	return s.PaymentNeeded(req, apierror.PaymentRequired, "The free message is used: a message costs "+USD(ContactPriceMicros)+
		" USD. Pay the offer below with x402 (X-PAYMENT or PAYMENT-SIGNATURE) or send a credit token, and repeat the call.")
}
