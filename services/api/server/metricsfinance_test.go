package server

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/metrics"
)

const testMetricsToken = "op-token-0123456789"

// operatorMetrics reads GET /api/metrics with the operator token, past the
// counters' cache.
func (a *testAPI) operatorMetrics() metrics.Metrics {
	a.t.Helper()
	a.server.metrics.Forget()
	resp, body := a.do(http.MethodGet, "/api/metrics", http.Header{"Authorization": {"Bearer " + testMetricsToken}})
	if resp.StatusCode != 200 {
		a.t.Fatalf("metrics: %d %s", resp.StatusCode, body)
	}
	var m metrics.Metrics
	if err := json.Unmarshal(body, &m); err != nil || m.Payments == nil {
		a.t.Fatalf("metrics %s (%v)", body, err)
	}
	return m
}

// TestMetricsPaymentsAfterPaidFlow: after a real paid flow against the
// local facilitator (a credit purchase and an agent message paid with
// x402, a message paid with credit, the free one), the operator's finance
// block equals the sums of the settled payments and credit movements.
func TestMetricsPaymentsAfterPaidFlow(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"METRICS_TOKEN": testMetricsToken}, Options{})
	if p := *r.operatorMetrics().Payments; p.Mode == nil || *p.Mode != "live" {
		t.Fatalf("mode %v", p.Mode)
	} else if p.Mode = nil; p != (metrics.Payments{Currency: "USD", ReceivedUSD: "0.00"}) {
		t.Fatalf("before any payment: %+v", p)
	}
	tok := r.buy(1, 1).Token // 1.00 by x402 v1
	post := func(h map[string]string) {
		t.Helper()
		resp, body := r.send(http.MethodPost, "/api/contact", contactBody(""), mergeHeaders(map[string]string{"Content-Type": "application/json"}, h))
		if resp.StatusCode != 200 {
			t.Fatalf("contact: %d %s", resp.StatusCode, body)
		}
	}
	post(nil) // the free first message
	req := r.offer(r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json"}))
	post(map[string]string{paymentHeader(2): r.payer.Pay(req, 2)}) // 0.10 by x402 v2
	post(map[string]string{"X-Credito": tok})                      // 0.10 of credit
	if r.fac.Transfers() != 2 {
		t.Fatalf("facilitator transfers %d, want 2", r.fac.Transfers())
	}

	m := r.operatorMetrics()
	want := metrics.Payments{Currency: "USD", ReceivedMicros: 1_100_000, ReceivedUSD: "1.10", Payments: 2,
		CreditSoldMicros: 1_000_000, CreditSpentMicros: 100_000, CreditBalanceMicros: 900_000, CreditTokens: 1, CreditDebits: 1}
	got := *m.Payments
	got.Mode = nil
	if got != want {
		t.Fatalf("payments\n got %+v\nwant %+v", got, want)
	}
	// The same figures summed independently from the rows.
	var settled, sold, spent int64
	if err := r.store.Pool().QueryRow(t.Context(), `
		SELECT (SELECT sum(amount_micros) FROM x402_payments WHERE state = 'settled'),
		       (SELECT sum(amount_micros) FROM credit_movements WHERE kind = 'credit'),
		       (SELECT sum(amount_micros) FROM credit_movements WHERE kind = 'debit')`).Scan(&settled, &sold, &spent); err != nil {
		t.Fatal(err)
	}
	if settled != m.Payments.ReceivedMicros || sold != m.Payments.CreditSoldMicros || spent != m.Payments.CreditSpentMicros {
		t.Fatalf("rows: settled %d, sold %d, spent %d; block %+v", settled, sold, spent, *m.Payments)
	}
	if b := r.balance(tok); b.BalanceMicros != m.Payments.CreditBalanceMicros {
		t.Fatalf("token balance %d, block %d", b.BalanceMicros, m.Payments.CreditBalanceMicros)
	}
	// The public answer has no finance block.
	var anon map[string]any
	r.get("/api/metrics", 200, &anon)
	if _, ok := anon["payments"]; ok {
		t.Fatal("payments in the anonymous answer")
	}
}

// TestMetricsDevPaymentsSimulated: a dev-mode purchase is counted as
// simulated, never as money received; its credit is credit all the same.
func TestMetricsDevPaymentsSimulated(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"METRICS_TOKEN": testMetricsToken, "X402_MODE": "dev"}, Options{})
	r.buy(5, 1)
	p := *r.operatorMetrics().Payments
	if p.ReceivedMicros != 0 || p.Payments != 0 || p.SimulatedPayments != 1 || p.CreditSoldMicros != 5_000_000 || r.fac.Transfers() != 0 {
		t.Fatalf("dev purchase: %+v", p)
	}
}

// TestMetricsAccounts: base keeps {enabled: false, total: 0}; full counts
// the accounts and this product's live keys, for every caller.
func TestMetricsAccounts(t *testing.T) {
	t.Parallel()
	base := newAPI(t, "base")
	var raw map[string]json.RawMessage
	base.get("/api/metrics", 200, &raw)
	if string(raw["accounts"]) != `{"enabled":false,"total":0}` {
		t.Fatalf("base accounts %s", raw["accounts"])
	}
	full := newAPI(t, "full")
	ctx := t.Context()
	for _, id := range []string{"ana", "bia", "caio"} {
		if _, err := full.store.SyncProfile(ctx, id, store.ProfileClaims{}); err != nil {
			t.Fatal(err)
		}
	}
	for i, k := range []struct{ id, product string }{{"ana", wire.ProductID}, {"ana", wire.ProductID}, {"bia", "other"}} {
		h := sha256.Sum256([]byte{byte(i)})
		if _, err := full.store.CreateAPIKey(ctx, store.NewAPIKey{IdentityID: k.id, Product: k.product, Name: "k", SecretHash: h[:], Last4: "abcd"}); err != nil {
			t.Fatal(err)
		}
	}
	m := full.metricsNow()
	if !m.Accounts.Enabled || m.Accounts.Total != 3 || m.Accounts.KeysLive == nil || *m.Accounts.KeysLive != 2 {
		t.Fatalf("full accounts %+v", m.Accounts)
	}
}

// TestMetricsPendingPayments: a payment whose settle answer was lost is
// counted pending and unknown, with the age of the oldest, until it is
// finished; the block names the mode.
func TestMetricsPendingPayments(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"METRICS_TOKEN": testMetricsToken}, Options{PaymentTimeout: 200 * time.Millisecond})
	if p := *r.operatorMetrics().Payments; p.PendingPayments != 0 || p.PendingOldestSeconds != nil || p.Mode == nil || *p.Mode != "live" {
		t.Fatalf("before: %+v", p)
	}
	req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
	pay := r.payer.Pay(req, 1)
	r.fac.StallSettles(3, time.Minute)
	if resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"X-PAYMENT": pay}); resp.StatusCode != 503 {
		t.Fatalf("lost answer: %d %s", resp.StatusCode, body)
	}

	if p := *r.operatorMetrics().Payments; p.PendingPayments != 1 || p.UnknownPayments != 1 || p.PendingMicros != 1_000_000 ||
		p.PendingOldestSeconds == nil || *p.PendingOldestSeconds > 60 {
		t.Fatalf("pending: %+v", p)
	}
	if resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"X-PAYMENT": pay}); resp.StatusCode != 200 {
		t.Fatalf("sent again: %d %s", resp.StatusCode, body)
	}

	if p := *r.operatorMetrics().Payments; p.PendingPayments != 0 || p.PendingOldestSeconds != nil || p.Payments != 1 {
		t.Fatalf("after: %+v", p)
	}
}
