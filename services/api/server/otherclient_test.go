package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/okfindex/okf-index/services/api/server/billing"
)

// TestCreditTokenShownOnlyToThePayer: the same payment sent again from
// another client (a chain reader can rebuild a settled payment's header)
// is not shown the token, whether the payment had settled or was still
// pending; the client that paid is.
func TestCreditTokenShownOnlyToThePayer(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"TRUSTED_PROXY_HEADER": "X-Forwarded-For"}, Options{PaymentTimeout: 200 * time.Millisecond})
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }
	for _, lost := range []bool{false, true} {
		req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, from("192.0.2.1")))
		pay := r.payer.Pay(req, 1)
		if lost {
			r.fac.StallSettles(3, time.Minute)
		}
		resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, mergeHeaders(from("192.0.2.1"), map[string]string{"X-PAYMENT": pay}))
		if want := map[bool]int{false: 200, true: 503}[lost]; resp.StatusCode != want {
			t.Fatalf("lost %v: first %d %s", lost, resp.StatusCode, body)
		}
		resp, body = r.send(http.MethodPost, "/api/credito?usd=1", nil, mergeHeaders(from("198.51.100.7"), map[string]string{"X-PAYMENT": pay}))
		if resp.StatusCode != 402 || json.Valid(body) && containsToken(body) {
			t.Fatalf("lost %v: another client %d %s", lost, resp.StatusCode, body)
		}
		resp, body = r.send(http.MethodPost, "/api/credito?usd=1", nil, mergeHeaders(from("192.0.2.1"), map[string]string{"X-PAYMENT": pay}))
		var p billing.CreditPurchase
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil || p.Token == "" {
			t.Fatalf("lost %v: the payer again %d %s", lost, resp.StatusCode, body)
		}
	}
	if tokens, _ := r.grants(); tokens != 2 || r.fac.Transfers() != 2 {
		t.Fatalf("tokens %d, transfers %d; want 2 and 2", tokens, r.fac.Transfers())
	}
}

func containsToken(body []byte) bool {
	var p billing.CreditPurchase
	return json.Unmarshal(body, &p) == nil && p.Token != ""
}
