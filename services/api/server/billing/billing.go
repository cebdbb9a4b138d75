// Package billing is the full variant's money: the x402 payment of a paid
// route (offer, collect: decode, check, verify, claim, settle or fail),
// what the paid routes cost, and how an agent's contact message is paid
// (credit, x402, the free first message, dev, or the backoff). It is built
// once from the configuration, with the mode typed and the network and the
// receiving address resolved, so no handler reads the X402_* settings.
// Handlers parse the request and encode the answer; the store records what
// this package decided.
//
// Modes (contract 2.8, X402_MODE, which has no default on the full
// variant): live charges through the facilitator (verify, claim the
// payment's nonce in Postgres with its settle job, settle, grant in one
// transaction with the settlement's record: package settle); dev
// simulates: a paid route still offers its 402 (PAYMENT-REQUIRED also on
// the answers it lets through), a well-formed payment is checked and its
// nonce claimed but nothing is verified or settled, and the agent contact
// lets unpaid calls through. Every payment, token and movement records its
// mode, and neither mode honours the other's payments or credit. dev is
// logged as a warning at start and every hour. There is no third mode:
// GET /api/billing's homolog says whether the network is base-sepolia,
// whose test USDC closes the loop without spending, and its dev_gate is
// false, since this service has no test credential that grants without
// paying.
//
// A payment is idempotent by its signed authorization: the same payment
// sent again resumes it (settles it if it is still pending) and answers
// what it bought, never a second charge or a request for a new one.
package billing

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Mode is how payments are taken.
type Mode string

// The modes of X402_MODE.
const (
	Live Mode = "live" // verified and settled by the facilitator
	Dev  Mode = "dev"  // checked and claimed, never settled; unpaid contact let through
)

// Prices and products (contract section 8). Money is integer micro-dollars
// here and a decimal string on the wire.
const (
	// ContactPriceMicros is one agent contact message after the first free
	// one: 0.10 USD.
	ContactPriceMicros = 100_000
)

// CreditPackagesUSD are the prepaid credit packages on sale.
var CreditPackagesUSD = []int64{1, 5, 10, 25}

// devPayTo is the recipient a dev deployment without X402_PAY_TO offers.
const devPayTo = "0x0000000000000000000000000000000000000000"

// Service takes payments. It is safe for concurrent use.
type Service struct {
	mode        Mode
	networkName string       // X402_NETWORK as configured
	network     x402.Network // its chain, asset and names
	payTo       string       // X402_PAY_TO; "" when not configured
	facilitator *x402.Facilitator
	baseURL     string
	store       Store
	jobs        Jobs
	settler     *settle.Settler
	now         func() time.Time
}

// Jobs inserts a job in a transaction (River's insert-only client).
type Jobs interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// New builds the service of cfg on st. now is the clock of the payment
// checks (time.Now when nil); timeout bounds one facilitator call
// (x402.DefaultTimeout when 0).
func New(cfg config.Config, st Store, now func() time.Time, timeout time.Duration) (*Service, error) {
	mode := Mode(cfg.X402Mode)
	if (cfg.Full() || mode != "") && mode != Live && mode != Dev {
		return nil, fmt.Errorf("billing: X402_MODE %q is not live or dev", cfg.X402Mode)
	}
	net, ok := x402.Networks[cfg.X402Network]
	if !ok {
		return nil, fmt.Errorf("billing: X402_NETWORK %q is not a known network", cfg.X402Network)
	}
	if now == nil {
		now = time.Now
	}
	if timeout == 0 {
		timeout = requestAttemptTimeout
	}
	s := &Service{mode: mode, networkName: cfg.X402Network, network: net, payTo: cfg.X402PayTo,
		facilitator: &x402.Facilitator{URL: cfg.X402Facilitator, Timeout: timeout},
		baseURL:     cfg.PublicBaseURL, store: st, now: now}
	s.settler = &settle.Settler{Store: st, Facilitator: s.facilitator, Enqueue: s.enqueueSend, Now: now}
	return s, nil
}

// Facilitator timing in a request: each attempt is bounded by
// requestAttemptTimeout (the PaymentTimeout option when set), and all the
// facilitator calls of one request by requestBudget, so that an outage is
// answered 503 within five seconds; resumeAfter is the Retry-After of a
// payment whose settle answer did not come in time.
const (
	requestAttemptTimeout = 1500 * time.Millisecond
	requestBudget         = 4 * time.Second
	resumeAfter           = 5 * time.Second
)

// UseJobs gives the service its job inserter: a claimed payment's settle
// job and a paid message's send job are inserted with it.
func (s *Service) UseJobs(j Jobs) { s.jobs = j }

// enqueueSend inserts the send job of contact message id in tx.
func (s *Service) enqueueSend(ctx context.Context, tx pgx.Tx, id int64) error {
	_, err := s.jobs.InsertTx(ctx, tx, jobs.SendContactArgs{ID: id}, nil)
	return err
}

// enqueueSettle inserts the settle job of payment id in tx, to run after
// the request's own attempt.
func (s *Service) enqueueSettle(ctx context.Context, tx pgx.Tx, id int64) error {
	_, err := s.jobs.InsertTx(ctx, tx, jobs.SettlePaymentArgs{ID: id},
		&river.InsertOpts{ScheduledAt: time.Now().Add(jobs.SettlePaymentDelay), MaxAttempts: jobs.SettlePaymentMaxAttempts})
	return err
}

// DevWarningEvery is how often a dev deployment logs that it takes no
// money.
const DevWarningEvery = time.Hour

// WarnDev logs, at once and every DevWarningEvery until ctx ends, that
// this deployment is in dev mode; a live one logs nothing.
func (s *Service) WarnDev(ctx context.Context, log *slog.Logger) {
	if s.mode != Dev {
		return
	}
	warn := func() {
		log.WarnContext(ctx, "X402_MODE=dev: payments are simulated and nothing is charged; paid routes let calls through. Never run dev where real people pay.",
			"x402_mode", string(s.mode))
	}
	warn()
	t := time.NewTicker(DevWarningEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			warn()
		}
	}
}

// Mode is how this deployment takes payments.
func (s *Service) Mode() Mode { return s.mode }

// Network is the chain payments are made on; NetworkName its configured name.
func (s *Service) Network() x402.Network { return s.network }

// NetworkName is X402_NETWORK.
func (s *Service) NetworkName() string { return s.networkName }

// PayTo is the configured receiving address; ok is false when there is none.
func (s *Service) PayTo() (address string, ok bool) { return s.payTo, s.payTo != "" }

// Testnet reports whether payments are made in test USDC (base-sepolia),
// which closes the payment loop without spending.
func (s *Service) Testnet() bool { return s.networkName == "base-sepolia" }

// FacilitatorURL is the facilitator this deployment verifies and settles with.
func (s *Service) FacilitatorURL() string { return s.facilitator.URL }

// Offer is what a paid call at path (the service's own path, with its
// query) costs.
func (s *Service) Offer(path string, micros int64, description string) x402.Requirement {
	payTo := s.payTo
	if payTo == "" {
		payTo = devPayTo
	}
	return x402.Requirement{Network: s.network, AmountMicro: micros, PayTo: payTo,
		Resource: s.baseURL + path, Description: description}
}

// payable is nil when this deployment can take payments: a live one needs
// its receiving address (dev offers a placeholder and settles nothing).
func (s *Service) payable() error {
	if s.mode == Live && s.payTo == "" {
		down := apierror.New(apierror.PaymentUnavailable,
			"Payments are not configured on this deployment (no receiving address); nothing was charged.")
		down.Fault = true // a live deployment without its address is misconfigured
		return down
	}
	return nil
}

// PaymentNeeded is the 402 named name asking for req, or the 503 of a
// deployment that cannot take payments.
func (s *Service) PaymentNeeded(req x402.Requirement, name, message string) error {
	if err := s.payable(); err != nil {
		return err
	}
	return apierror.PaymentNeeded(req, name, message)
}
