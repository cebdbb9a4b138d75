package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/billing"
)

func TestPricingAndBilling(t *testing.T) {
	t.Parallel()
	a := newAPIWith(t, storetest.NewStore(t), map[string]string{
		"PUBLIC_BASE_URL": publicBase, "VARIANT": config.VariantFull,
		"X402_NETWORK": "base", "X402_PAY_TO": "0x1111111111111111111111111111111111111111", "X402_MODE": "live",
		"X402_FACILITATOR_URL": config.DefaultX402Facilitator,
	})
	var p billing.Pricing
	a.get("/api/pricing", 200, &p)
	if p.Product != wire.ProductID || p.Pricing != publicBase+"/api/pricing" || p.Billing != publicBase+"/api/billing" ||
		p.APIIndex != publicBase+"/api/" || len(p.Quota.Free) == 0 || len(p.Quota.Paid) == 0 {
		t.Errorf("pricing %+v", p)
	}
	if p.Quota.Paid[0].PriceUSD != "0.10" { // contract section 8: 0.10 USD per agent message
		t.Errorf("contact price %q, want 0.10", p.Quota.Paid[0].PriceUSD)
	}

	var b billing.Billing
	body := a.get("/api/billing", 200, &b)
	pay := b.Payment
	if pay.Provider != "x402" || pay.Mode != "live" || pay.Network != "base" || pay.ChainID != 8453 ||
		pay.PayTo == nil || *pay.PayTo != "0x1111111111111111111111111111111111111111" || pay.Dev || pay.Staging ||
		pay.Asset != "USDC" || pay.AssetAddress != "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" || pay.Faucet != nil {
		t.Errorf("payment %+v", pay)
	}
	if b.Credit.URL != publicBase+"/api/credito" || b.Credit.Header != "X-Credito" {
		t.Errorf("credit %+v", b.Credit)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(body, &keys)
	for _, k := range []string{"product", "quota", "pricing", "billing", "api_index", "payment", "credit"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("billing lacks %s", k)
		}
	}

	// Contract section 7: a method other than GET or HEAD is a 405.
	for _, path := range []string{"/api/pricing", "/api/billing"} {
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
			resp, _ := a.do(method, path, nil)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405", method, path, resp.StatusCode)
			}
		}
		if resp, body := a.do(http.MethodHead, path, nil); resp.StatusCode != 200 || len(body) != 0 {
			t.Errorf("HEAD %s: %d with %d bytes", path, resp.StatusCode, len(body))
		}
	}
}

func TestPricingDevDefaults(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	var b billing.Billing
	a.get("/api/billing", 200, &b)
	pay := b.Payment
	if pay.Mode != "dev" || !pay.Dev || pay.Network != "base-sepolia" || pay.ChainID != 84532 || pay.PayTo != nil ||
		!pay.Staging || pay.Faucet == nil || pay.AssetAddress != "0x036CbD53842c5426634e7929541eC2318f3dCF7e" {
		t.Errorf("default payment %+v", pay)
	}
}

func TestUSD(t *testing.T) {
	for micros, want := range map[int64]string{0: "0.00", 100_000: "0.10", 1_000_000: "1.00", 1_500: "0.0015", 25_000_000: "25.00", 1_234_567: "1.234567"} {
		if got := wire.USD(micros); got != want {
			t.Errorf("wire.USD(%d) = %q, want %q", micros, got, want)
		}
	}
}
