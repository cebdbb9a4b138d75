package server

import (
	"context"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
)

// The lost settlement answer, end to end: real npm x402 clients pay a
// facilitator stand-in that moves the money and then loses its answer.
// The client does what the 503 says: it waits Retry-After and sends the
// same request with the same payment again. Each case ends with one
// transfer, one grant, and the client having signed one payment.

// x402ResendScript pays one call with the client of protocol VERSION and,
// while the answer is 503 with Retry-After, sends the same request with the
// payment header it signed again; it prints {status, body, payments,
// attempts}: how many distinct payments it signed and how many answers it
// read.
const x402ResendScript = x402PayPrelude + `
const signed = [];
const recording = async (input, init) => {
  const req = new Request(input, init);
  for (const name of ["PAYMENT-SIGNATURE", "X-PAYMENT"]) {
    const v = req.headers.get(name);
    if (v) signed.push([name, v]);
  }
  return fetch(req);
};
let resp = await (await makePay(recording))(url, init);
let attempts = 1;
while (resp.status === 503 && resp.headers.get("Retry-After") && signed.length > 0 && attempts < 5) {
  await new Promise((r) => setTimeout(r, Number(resp.headers.get("Retry-After")) * 1000));
  const [name, value] = signed[signed.length - 1];
  resp = await fetch(url, { ...init, headers: { ...init.headers, [name]: value } });
  attempts++;
}
const text = await resp.text();
console.log(JSON.stringify({ status: resp.status, body: text, payments: new Set(signed.map((s) => s[1])).size, attempts,
  settlement: resp.headers.get("PAYMENT-RESPONSE") || resp.headers.get("X-PAYMENT-RESPONSE") || "" }));
`

type x402ResendResult struct {
	Status     int    `json:"status"`
	Body       string `json:"body"`
	Payments   int    `json:"payments"`
	Attempts   int    `json:"attempts"`
	Settlement string `json:"settlement"`
}

func runX402Resend(t *testing.T, r *payRig, version, method, path, body string) x402ResendResult {
	t.Helper()
	k, _ := crypto.GenerateKey()
	var res x402ResendResult
	runNodeScript(t, x402ResendScript, &res, "URL="+r.url+path, "METHOD="+method, "BODY="+body,
		"KEY=0x"+hex.EncodeToString(crypto.FromECDSA(k)), "VERSION="+version)
	return res
}

// grants counts what the payments granted: credit tokens, paid messages.
func (r *payRig) grants() (tokens, messages int) {
	r.t.Helper()
	if err := r.store.Pool().QueryRow(r.t.Context(), `SELECT (SELECT count(*) FROM credit_tokens),
		(SELECT count(*) FROM contact_messages WHERE path = 'agent_x402')`).Scan(&tokens, &messages); err != nil {
		r.t.Fatal(err)
	}
	return tokens, messages
}

func TestX402LostSettlementAnswer(t *testing.T) {
	t.Parallel()
	nodeTool(t, "redocly")
	for _, tc := range []struct {
		name string
		lose func(r *payRig)
		// race also runs the settle job's code beside the resent payment:
		// the facilitator answers both, the grant is once.
		race     bool
		versions []string // the npm clients that pay: both, or one to keep the run short
	}{
		{"settles and never answers", func(r *payRig) { r.fac.StallSettles(3, time.Minute) }, false, []string{"1", "2"}},
		{"answers 500 after settling", func(r *payRig) { r.fac.FailSettlesAfterSettling(3) }, false, []string{"2"}},
		{"answers twice", func(r *payRig) { r.fac.StallSettles(3, time.Minute) }, true, []string{"1"}},
	} {
		for _, version := range tc.versions {
			t.Run(tc.name+"/v"+version, func(t *testing.T) {
				t.Parallel()
				// Short attempts: the request gives up on the lost answers
				// sooner than its 4 s budget.
				r := newPayRig(t, nil, Options{PaymentTimeout: 300 * time.Millisecond})
				for _, call := range []struct{ path, body string }{
					{"/api/credito?usd=1", ""},
					{"/api/contact", string(contactBody(""))},
				} {
					if call.path == "/api/contact" {
						// The free message first, so the next one is paid.
						resp, body := r.send("POST", "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json"})
						if resp.StatusCode != 200 {
							t.Fatalf("free message: %d %s", resp.StatusCode, body)
						}
					}
					transfers := r.fac.Transfers()
					tc.lose(r)
					var wg sync.WaitGroup
					if tc.race {
						wg.Go(func() { r.settlePending(t) })
					}
					start := time.Now()
					res := runX402Resend(t, r, version, "POST", call.path, call.body)
					wg.Wait()
					if res.Status != 200 || res.Payments != 1 || res.Attempts < 2 || res.Settlement == "" {
						t.Fatalf("%s: %+v after %s", call.path, res, time.Since(start))
					}
					if r.fac.Transfers() != transfers+1 {
						t.Fatalf("%s: transfers %d, want %d", call.path, r.fac.Transfers(), transfers+1)
					}
				}
				tokens, messages := r.grants()
				if tokens != 1 || messages != 1 {
					t.Fatalf("granted %d tokens and %d paid messages, want 1 and 1", tokens, messages)
				}
				var pending int
				_ = r.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM x402_payments WHERE state <> 'settled'`).Scan(&pending)
				if pending != 0 {
					t.Fatalf("%d payments not settled", pending)
				}
			})
		}
	}
}

// settlePending runs what the settle_payment job runs on every pending
// payment, while the client pays, until one was finished.
func (r *payRig) settlePending(t *testing.T) {
	s := &settle.Settler{Store: r.store, Facilitator: &x402.Facilitator{URL: r.fac.URL},
		Enqueue: func(ctx context.Context, tx pgx.Tx, id int64) error {
			_, err := r.server.jobs.InsertTx(ctx, tx, jobs.SendContactArgs{ID: id}, nil)
			return err
		}}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		pending, err := r.store.PendingPayments(t.Context(), 0)
		if err != nil {
			t.Error(err)
			return
		}
		for _, p := range pending {
			if p.State == store.PaymentUnknown {
				if out, err := s.Settle(t.Context(), p.ID); err == nil && out.Record.State == store.PaymentSettled {
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}
