package billing

import "github.com/okfindex/okf-index/pkg/wire"

// PaidResources are the paid routes of this deployment as the x402
// manifest (/.well-known/x402, package discovery) lists them.
func (s *Service) PaidResources(baseURL string) []map[string]any {
	return []map[string]any{{
		"resource":    baseURL + "/api/contact",
		"method":      "POST",
		"scheme":      "exact",
		"network":     s.networkName,
		"asset":       s.network.USDC,
		"price_usd":   wire.USD(ContactPriceMicros),
		"description": "One agent contact message, after the first free one.",
	}, {
		"resource":    baseURL + "/api/credito",
		"method":      "POST",
		"scheme":      "exact",
		"network":     s.networkName,
		"asset":       s.network.USDC,
		"price_usd":   creditPackagePrices(),
		"description": "Prepaid credit, in packages of 1, 5, 10 or 25 USD.",
	}}
}

// ModeName is the payment mode as the operator's health answer shows it.
func (s *Service) ModeName() string { return string(s.mode) }

// creditPackagePrices are the prices of the credit packages, in USD.
func creditPackagePrices() []string {
	var out []string
	for _, n := range CreditPackagesUSD {
		out = append(out, wire.USD(n*1_000_000))
	}
	return out
}
