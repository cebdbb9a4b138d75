package billing_test

import (
	"errors"
	"fmt"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/billing"
)

// The billing service is built once from the configuration; a paid route
// asks it what a call costs and, when the request carries no payment, for
// the 402 that offers it. (Collect and QueueAgentContact take the payment
// and record it through the store.)
func Example() {
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"PUBLIC_BASE_URL": "https://okf.example", "VARIANT": "full",
			"X402_MODE": "live", "X402_NETWORK": "base", "X402_PAY_TO": "0x1111111111111111111111111111111111111111",
			"X402_FACILITATOR_URL": "https://facilitator.example"}[k]
	})
	if err != nil {
		panic(err)
	}
	svc, err := billing.New(cfg, nil, nil, 0)
	if err != nil {
		panic(err)
	}
	offer := svc.Offer("/api/contact", billing.ContactPriceMicros, "one agent contact message")
	fmt.Println(svc.Mode(), offer.Network.Name, wire.USD(offer.AmountMicro), offer.Resource)

	var refusal *apierror.Error
	errors.As(svc.PaymentNeeded(offer, apierror.PaymentRequired, "Pay the offer."), &refusal)
	fmt.Println(refusal.Status, refusal.Body.Error, refusal.Offer.PayTo)
	// Output:
	// live base 0.10 https://okf.example/api/contact
	// 402 payment_required 0x1111111111111111111111111111111111111111
}
