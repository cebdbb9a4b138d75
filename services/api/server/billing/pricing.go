package billing

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// Price and billing discovery of the full variant (contract 4.3 and 2.8).
// Money is integer micro-dollars here and a decimal string on the wire.

// Pricing is the answer of GET /api/pricing.
type Pricing struct {
	Product  string `json:"product"`
	Quota    Quota  `json:"quota"`
	Pricing  string `json:"pricing"`
	Billing  string `json:"billing"`
	APIIndex string `json:"api_index"`
}

// Billing is the answer of GET /api/billing: the pricing plus how to pay.
type Billing struct {
	Pricing
	Payment PaymentConfig `json:"payment"`
	Credit  Credit        `json:"credit"`
}

// Quota is what is free and what is paid (contract 2.8).
type Quota struct {
	Free     []FreeQuota `json:"free"`
	Paid     []PaidPrice `json:"paid"`
	HowToPay string      `json:"how_to_pay"`
	Live     *string     `json:"live"`
}

// FreeQuota is one free allowance; Window is its window, nil for none.
type FreeQuota struct {
	What   string  `json:"o_que"`
	Limit  string  `json:"limite"`
	Window *string `json:"janela"`
}

// PaidPrice is one list price, in USD as a decimal string.
type PaidPrice struct {
	What     string `json:"o_que"`
	PriceUSD string `json:"price_usd"`
}

// PaymentConfig is how this deployment takes x402 payments (contract 2.8).
type PaymentConfig struct {
	Provider     string            `json:"provider"`
	Mode         string            `json:"mode"`
	Network      string            `json:"network"`
	ChainID      int               `json:"chain_id"`
	PayTo        *string           `json:"pay_to"`
	Staging      bool              `json:"homolog"`
	Dev          bool              `json:"dev"`
	DevGate      bool              `json:"dev_gate"`
	Facilitator  string            `json:"facilitator"`
	Asset        string            `json:"asset"`
	AssetAddress string            `json:"asset_address"`
	Faucet       *string           `json:"faucet"`
	Wallets      map[string]string `json:"wallets"`
}

// Credit says where prepaid credit is bought and which header carries it.
type Credit struct {
	URL    string `json:"url"`
	Header string `json:"header"`
}

// Pricing is the document of GET /api/pricing.
func (s *Service) Pricing() Pricing {
	day := "UTC day"
	return Pricing{
		Product: wire.ProductID,
		Quota: Quota{
			Free: []FreeQuota{
				{What: "search, bundle cards, statistics, discovery documents, llms.txt, OpenAPI and MCP", Limit: "unlimited"},
				{What: "bundle roots submitted per host (POST /api/ping)", Limit: "200", Window: &day},
				{What: "agent contact messages (POST /api/contact)", Limit: "1"},
			},
			Paid: append([]PaidPrice{
				{What: "agent contact message after the first (POST /api/contact)", PriceUSD: wire.USD(ContactPriceMicros)},
			}, creditPrices()...),
			HowToPay: "Call the paid route; it answers 402 with x402 accepts[]. Pay in USDC and repeat the same call " +
				"with the X-PAYMENT header, or buy prepaid credit at POST /api/credito and send " +
				"Authorization: Bearer cred_<secret> (or X-Credito).",
		},
		Pricing:  s.baseURL + "/api/pricing",
		Billing:  s.baseURL + "/api/billing",
		APIIndex: s.baseURL + "/api/",
	}
}

// Document is the document of GET /api/billing.
func (s *Service) Document() Billing {
	net := s.Network()
	var payTo, faucet *string
	if address, ok := s.PayTo(); ok {
		payTo = &address
	}
	if net.Faucet != "" {
		faucet = &net.Faucet
	}
	return Billing{
		Pricing: s.Pricing(),
		Payment: PaymentConfig{
			Provider: "x402",
			Mode:     string(s.Mode()),
			Network:  s.NetworkName(),
			ChainID:  int(net.ChainID),
			PayTo:    payTo,
			// homolog: the loop closes with test USDC; dev_gate: no test
			// credential exists in this service (package billing).
			Staging:      s.Testnet(),
			Dev:          s.Mode() == Dev,
			Facilitator:  s.FacilitatorURL(),
			Asset:        "USDC",
			AssetAddress: net.USDC,
			Faucet:       faucet,
			Wallets: map[string]string{
				"coinbase_wallet": "https://www.coinbase.com/wallet",
				"metamask":        "https://metamask.io/",
			},
		},
		Credit: Credit{URL: s.baseURL + "/api/credito", Header: CreditHeader},
	}
}

// getPricing answers GET /api/pricing [full only].
func (s *Service) getPricing(c echo.Context) error {
	return respond.JSON(c, http.StatusOK, s.Pricing())
}

// getBilling answers GET /api/billing [full only].
func (s *Service) getBilling(c echo.Context) error {
	return respond.JSON(c, http.StatusOK, s.Document())
}

// creditPrices lists the credit packages as paid items.
func creditPrices() []PaidPrice {
	var out []PaidPrice
	for _, n := range CreditPackagesUSD {
		out = append(out, PaidPrice{What: fmt.Sprintf("prepaid credit package (POST /api/credito?usd=%d)", n), PriceUSD: wire.USD(n * 1_000_000)})
	}
	return out
}
