package x402_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/pkg/x402/x402test"
)

func requirement() x402.Requirement {
	return x402.Requirement{Network: x402.Networks["base-sepolia"], AmountMicro: 100_000,
		PayTo: "0x1111111111111111111111111111111111111111", Resource: "http://example.test/api/contact"}
}

func TestRequiredBothVersions(t *testing.T) {
	r := requirement()
	b, _ := json.Marshal(x402.NewRequired(r, "pay"))
	var v1 map[string]any
	_ = json.Unmarshal(b, &v1)
	acc := v1["accepts"].([]any)[0].(map[string]any)
	if v1["x402Version"].(float64) != 1 || acc["maxAmountRequired"] != "100000" || acc["network"] != "base-sepolia" ||
		acc["asset"] != "0x036CbD53842c5426634e7929541eC2318f3dCF7e" || acc["resource"] != r.Resource || acc["maxTimeoutSeconds"].(float64) != 300 {
		t.Fatalf("v1 body = %s", b)
	}
	raw, err := base64.StdEncoding.DecodeString(x402.RequiredHeader(r, "pay"))
	if err != nil {
		t.Fatal(err)
	}
	var v2 map[string]any
	_ = json.Unmarshal(raw, &v2)
	acc = v2["accepts"].([]any)[0].(map[string]any)
	if v2["x402Version"].(float64) != 2 || acc["amount"] != "100000" || acc["network"] != "eip155:84532" {
		t.Fatalf("v2 header = %s", raw)
	}
}

func TestVerifyAndSettleBothVersions(t *testing.T) {
	f := x402test.New()
	defer f.Close()
	fc := &x402.Facilitator{URL: f.URL}
	payer := x402test.NewPayer()
	r := requirement()
	for _, version := range []int{1, 2} {
		h := http.Header{}
		name := x402.HeaderPaymentV1
		if version == 2 {
			name = x402.HeaderPaymentV2
		}
		h.Set(name, payer.Pay(r, version))
		p, ok, err := x402.FromRequest(h)
		if !ok || err != nil || p.Version != version {
			t.Fatalf("v%d: decode ok=%v err=%v version=%d", version, ok, err, p.Version)
		}
		if err := x402.Check(p, r, time.Now()); err != nil {
			t.Fatalf("v%d: check: %v", version, err)
		}
		if p.Payer() != payer.Address && p.Payer() == "" {
			t.Fatal("no payer")
		}
		v, err := fc.Verify(context.Background(), p, r)
		if err != nil || !v.IsValid {
			t.Fatalf("v%d: verify = %+v, %v", version, v, err)
		}
		s, err := fc.Settle(context.Background(), p, r)
		if err != nil || !s.Success || s.Transaction == "" {
			t.Fatalf("v%d: settle = %+v, %v", version, s, err)
		}
		// The stand-in refuses the spent authorization on verify.
		if v, _ := fc.Verify(context.Background(), p, r); v.IsValid {
			t.Fatalf("v%d: a settled payment verified again", version)
		}
	}
	if f.Transfers() != 2 {
		t.Fatalf("transfers = %d, want 2", f.Transfers())
	}
}

func TestCheckRefusesMismatches(t *testing.T) {
	payer := x402test.NewPayer()
	r := requirement()
	p, err := x402.Decode(payer.Pay(r, 1))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]x402.Requirement{}
	amount := r
	amount.AmountMicro = 1_000_000
	cases["amount"] = amount
	to := r
	to.PayTo = "0x2222222222222222222222222222222222222222"
	cases["recipient"] = to
	net := r
	net.Network = x402.Networks["base"]
	cases["network"] = net
	for name, req := range cases {
		var m *x402.Mismatch
		if err := x402.Check(p, req, time.Now()); !errors.As(err, &m) {
			t.Errorf("%s: Check = %v, want a mismatch", name, err)
		}
	}
	if err := x402.Check(p, r, time.Now().Add(time.Hour)); err == nil {
		t.Error("an expired authorization passed")
	}
	// A forged signature passes the shape check but not the facilitator.
	p.Payload.Authorization.Value = "100000"
	p.Payload.Authorization.To = "0x1111111111111111111111111111111111111111"
	f := x402test.New()
	defer f.Close()
	other := x402test.NewPayer()
	p2, _ := x402.Decode(other.Pay(r, 1))
	p2.Payload.Authorization.From = payer.Address
	raw, _ := json.Marshal(map[string]any{"x402Version": 1, "scheme": "exact", "network": "base-sepolia", "payload": p2.Payload})
	p2.Raw = raw
	v, err := (&x402.Facilitator{URL: f.URL}).Verify(context.Background(), p2, r)
	if err != nil || v.IsValid {
		t.Fatalf("forged payment: %+v %v", v, err)
	}
}

// TestSettleRetryAfterTimeoutMovesMoneyOnce: the first settle is recorded
// by the facilitator but its answer is lost to the client's timeout; the
// retry carries the same authorization and learns the same transaction.
func TestSettleRetryAfterTimeoutMovesMoneyOnce(t *testing.T) {
	f := x402test.New()
	defer f.Close()
	f.StallSettles(1, 2*time.Second)
	fc := &x402.Facilitator{URL: f.URL, Timeout: 300 * time.Millisecond, Retries: 2}
	r := requirement()
	p, _ := x402.Decode(x402test.NewPayer().Pay(r, 2))
	s, err := fc.Settle(context.Background(), p, r)
	if err != nil || !s.Success {
		t.Fatalf("settle = %+v, %v", s, err)
	}
	if f.Settles() != 2 || f.Transfers() != 1 {
		t.Fatalf("settles = %d, transfers = %d; want 2 and 1", f.Settles(), f.Transfers())
	}
}

func FuzzDecode(f *testing.F) {
	r := requirement()
	payer := x402test.NewPayer()
	f.Add(payer.Pay(r, 1))
	f.Add(payer.Pay(r, 2))
	f.Add("")
	f.Add("eyJ4NDAyVmVyc2lvbiI6Mn0=")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := x402.Decode(s)
		if err != nil {
			return
		}
		if p.Version != 1 && p.Version != 2 {
			t.Fatalf("accepted version %d", p.Version)
		}
		_ = x402.Check(p, r, time.Now())
	})
}
