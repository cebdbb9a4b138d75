package metrics

import (
	"context"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

// The blocks of GET /api/metrics that the full variant reads from its own
// rows: accounts (public) and payments (operator only). A base deployment
// takes no money and has no accounts, so its blocks are zero by
// construction and read nothing.

// payments is the operator's finance block: on full, the sums of the x402
// payments and credit movements (store.Finance), in micro-dollars.
// received counts only payments settled on chain; those of X402_MODE=dev
// are simulated_payments. pending_payments (claimed or unknown) and the age
// of the oldest are what the settle_payment job and okfctl payments have
// left to finish; mode is the deployment's X402_MODE.
func (s *Service) payments(ctx context.Context) (*Payments, error) {
	if !s.full {
		return &Payments{Currency: "USD", ReceivedUSD: wire.USD(0)}, nil
	}
	f, err := s.store.Finance(ctx)
	if err != nil {
		return nil, err
	}
	var oldest *int64
	if f.PendingOldest != nil {
		age := max(0, int64(time.Since(*f.PendingOldest)/time.Second))
		oldest = &age
	}
	var mode *string
	if s.paymentMode != "" {
		mode = &s.paymentMode
	}
	return &Payments{
		Currency:             "USD",
		ReceivedMicros:       f.ReceivedMicros,
		ReceivedUSD:          wire.USD(f.ReceivedMicros),
		Payments:             f.Payments,
		CreditSoldMicros:     f.CreditSoldMicros,
		CreditBalanceMicros:  f.CreditBalanceMicros,
		CreditSpentMicros:    f.CreditSpentMicros,
		CreditTokens:         f.CreditTokens,
		CreditDebits:         f.CreditDebits,
		SimulatedPayments:    f.SimulatedPayments,
		PendingPayments:      f.PendingPayments,
		PendingMicros:        f.PendingMicros,
		FailedPayments:       f.FailedPayments,
		UnknownPayments:      f.UnknownPayments,
		RefundedPayments:     f.RefundedPayments,
		PendingOldestSeconds: oldest,
		Mode:                 mode,
	}, nil
}

// accountTotals is the accounts block: {enabled: false, total: 0} on base;
// on full the accounts seen and this product's live API keys.
func (s *Service) accountTotals(ctx context.Context) (Accounts, error) {
	if !s.full {
		return Accounts{}, nil
	}
	a, err := s.store.AccountTotals(ctx, wire.ProductID)
	if err != nil {
		return Accounts{}, err
	}
	return Accounts{Enabled: true, Total: a.Total, KeysLive: &a.KeysLive}, nil
}

// ShowPaymentMode sets the X402_MODE the finance block shows.
func (s *Service) ShowPaymentMode(mode string) { s.paymentMode = mode }
