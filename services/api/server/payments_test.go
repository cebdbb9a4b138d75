package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/pkg/x402/x402test"
	"github.com/okfindex/okf-index/services/api/server/billing"
)

// The paid routes of the full variant against a local facilitator that
// checks signatures for real, a captcha siteverify stand-in and a clock
// that moves only when told.

const testPayTo = "0x1111111111111111111111111111111111111111"

// payRig is a full API wired to the stand-ins.
type payRig struct {
	*testAPI
	fac   *x402test.Facilitator
	clock *clocktest.Clock
	payer x402test.Payer
}

// captchaStandIn answers siteverify: success when response is "pass" and
// the secret is the configured one.
func captchaStandIn(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		ok := r.PostForm.Get("secret") == "captcha-secret" && r.PostForm.Get("response") == "pass"
		fmt.Fprintf(w, `{"success": %v}`, ok)
	}))
	t.Cleanup(s.Close)
	return s
}

// newPayRig starts the rig; env adds to or overrides the defaults ("" unsets).
func newPayRig(t *testing.T, env map[string]string, opts Options) *payRig {
	t.Helper()
	return newPayRigOn(t, storetest.NewStore(t), env, opts)
}

// newPayRigOn starts the rig on st.
func newPayRigOn(t *testing.T, st *store.Store, env map[string]string, opts Options) *payRig {
	t.Helper()
	fac := x402test.New()
	t.Cleanup(fac.Close)
	base := map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": config.VariantFull, "PING_RATE_PER_MINUTE": "100000",
		"X402_MODE": "live", "X402_PAY_TO": testPayTo, "X402_FACILITATOR_URL": fac.URL,
		"CONTACT_MAIL_TO": "house@example.com", "SMTP_ADDR": "127.0.0.1:1",
		"CAPTCHA_VERIFY_URL": captchaStandIn(t).URL, "CAPTCHA_SECRET": "captcha-secret"}
	for k, v := range env {
		base[k] = v
	}
	clk := clocktest.New(time.Now())
	opts.Now = clk.Now
	return &payRig{testAPI: newAPIWithOptions(t, st, base, opts), fac: fac, clock: clk, payer: x402test.NewPayer()}
}

// offer reads the v1 requirement of a 402 and checks the v2 header beside it.
func (r *payRig) offer(resp *http.Response, body []byte) x402.Requirement {
	r.t.Helper()
	if resp.StatusCode != http.StatusPaymentRequired {
		r.t.Fatalf("status %d, want 402: %s", resp.StatusCode, body)
	}
	var pr struct {
		X402Version int
		Accepts     []struct {
			Scheme, Network, MaxAmountRequired, Asset, PayTo, Resource string
			MaxTimeoutSeconds                                          int
		}
	}
	if err := json.Unmarshal(body, &pr); err != nil || pr.X402Version != 1 || len(pr.Accepts) != 1 {
		r.t.Fatalf("402 body %s (%v)", body, err)
	}
	a := pr.Accepts[0]
	net := x402.Networks[a.Network]
	if a.Scheme != "exact" || a.Asset != net.USDC || a.PayTo != testPayTo || a.MaxTimeoutSeconds <= 0 || !strings.HasPrefix(a.Resource, publicBase+"/api/") {
		r.t.Fatalf("accepts[0] = %+v", a)
	}
	v2, err := base64.StdEncoding.DecodeString(resp.Header.Get("PAYMENT-REQUIRED"))
	if err != nil || !strings.Contains(string(v2), `"x402Version":2`) || !strings.Contains(string(v2), `"network":"`+net.CAIP2+`"`) {
		r.t.Fatalf("PAYMENT-REQUIRED = %s (%v)", v2, err)
	}
	var amount int64
	fmt.Sscan(a.MaxAmountRequired, &amount)
	return x402.Requirement{Network: net, AmountMicro: amount, PayTo: a.PayTo, Resource: a.Resource}
}

// paymentHeader is the header name of a protocol version.
func paymentHeader(version int) string {
	if version == 2 {
		return x402.HeaderPaymentV2
	}
	return x402.HeaderPaymentV1
}

// buy buys a credit package with an x402 payment of the given version.
func (r *payRig) buy(usdN, version int) billing.CreditPurchase {
	r.t.Helper()
	path := fmt.Sprintf("/api/credito?usd=%d", usdN)
	req := r.offer(r.send(http.MethodPost, path, nil, nil))
	resp, body := r.send(http.MethodPost, path, nil, map[string]string{paymentHeader(version): r.payer.Pay(req, version)})
	if resp.StatusCode != 200 {
		r.t.Fatalf("paid purchase: %d %s", resp.StatusCode, body)
	}
	respHeader := x402.HeaderPaymentResponseV1
	if version == 2 {
		respHeader = x402.HeaderPaymentResponseV2
	}
	if resp.Header.Get(respHeader) == "" || resp.Header.Get("Cache-Control") != "no-store" {
		r.t.Fatalf("purchase headers %v", resp.Header)
	}
	var p billing.CreditPurchase
	if err := json.Unmarshal(body, &p); err != nil {
		r.t.Fatal(err)
	}
	return p
}

func (r *payRig) balance(token string) billing.CreditBalanceAnswer {
	r.t.Helper()
	resp, body := r.send(http.MethodGet, "/api/credito", nil, map[string]string{"Authorization": "Bearer " + token})
	if resp.StatusCode != 200 {
		r.t.Fatalf("balance: %d %s", resp.StatusCode, body)
	}
	var b billing.CreditBalanceAnswer
	_ = json.Unmarshal(body, &b)
	return b
}

func TestCreditPurchaseBothVersions(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	for i, version := range []int{1, 2} {
		p := r.buy(5, version)
		if !strings.HasPrefix(p.Token, "cred_") || len(p.Token) != billing.CreditTokenLen || p.BalanceUSD != "5.00" || p.BalanceURL != publicBase+"/api/credito" {
			t.Fatalf("purchase %+v", p)
		}
		b := r.balance(p.Token)
		if b.BalanceMicros != 5_000_000 || b.BalanceUSD != "5.00" || len(b.Movements) != 1 || b.Movements[0].Kind != "credito" || b.Movements[0].Product != "okf" {
			t.Fatalf("balance %+v", b)
		}
		// X-Credito reads the same balance.
		resp, body := r.send(http.MethodGet, "/api/credito", nil, map[string]string{"X-Credito": p.Token})
		if resp.StatusCode != 200 || strings.Contains(string(body), p.Token) {
			t.Fatalf("X-Credito: %d %s", resp.StatusCode, body)
		}
		if r.fac.Transfers() != i+1 {
			t.Fatalf("transfers %d", r.fac.Transfers())
		}
		// Neither the token nor its secret part reaches the log.
		if logs := r.logs.String(); strings.Contains(logs, p.Token) || strings.Contains(logs, strings.TrimPrefix(p.Token, "cred_")) {
			t.Fatal("the credit token was logged")
		}
	}
	// Only its hash is stored.
	var stored int
	if err := r.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM credit_tokens WHERE octet_length(token_sha256) = 32`).Scan(&stored); err != nil || stored != 2 {
		t.Fatalf("stored tokens %d (%v)", stored, err)
	}
}

func TestCreditErrors(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	for _, q := range []string{"", "?usd=2", "?usd=abc", "?usd=1.5", "?usd=-1", "?usd=%2B1", "?usd=01", "?usd=%201", "?usd=1.0", "?usd=1&usd=5", "?usd=25%00"} {
		resp, body := r.send(http.MethodPost, "/api/credito"+q, nil, nil)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "invalid_package") {
			t.Errorf("POST /api/credito%s: %d %s", q, resp.StatusCode, body)
		}
	}
	for _, h := range []map[string]string{nil, {"X-Credito": "cred_nope"}, {"Authorization": "Bearer cred_" + strings.Repeat("A", 43)}} {
		resp, body := r.send(http.MethodGet, "/api/credito", nil, h)
		if resp.StatusCode != 401 || !strings.Contains(string(body), "invalid_credit") {
			t.Errorf("GET /api/credito %v: %d %s", h, resp.StatusCode, body)
		}
	}
	// A payment of the wrong amount, a forged one, and a replay are refused.
	req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
	cheap := req
	cheap.AmountMicro = 1
	for name, h := range map[string]string{"wrong amount": r.payer.Pay(cheap, 1), "garbage": "not-base64!"} {
		resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"X-PAYMENT": h})
		if resp.StatusCode != 402 || !strings.Contains(string(body), "payment_invalid") {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
	// The same payment sent again is the same purchase: the same token,
	// one transfer; it pays for nothing else.
	pay := r.payer.Pay(req, 1)
	var tokens []string
	for range 2 {
		resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"X-PAYMENT": pay})
		var p billing.CreditPurchase
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil {
			t.Fatalf("purchase: %d %s", resp.StatusCode, body)
		}
		tokens = append(tokens, p.Token)
	}
	if tokens[0] != tokens[1] || r.fac.Transfers() != 1 || r.balance(tokens[0]).BalanceMicros != 1_000_000 {
		t.Fatalf("tokens %v, transfers %d; want one token, one transfer", tokens, r.fac.Transfers())
	}
	resp, body := r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json", "X-PAYMENT": pay})
	if resp.StatusCode != 402 {
		t.Fatalf("spent for another call: %d %s", resp.StatusCode, body)
	}
}

// TestCreditReplayRefusedByStore: the facilitator (in dev, never asked)
// is not what recognises a payment sent again: the nonce recorded in
// Postgres is. The same document is the same purchase; another document
// with the same nonce is a replay.
func TestCreditReplayRefusedByStore(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"X402_MODE": "dev"}, Options{})
	req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
	pay := r.payer.Pay(req, 2)
	var first, again billing.CreditPurchase
	resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"PAYMENT-SIGNATURE": pay})
	if resp.StatusCode != 200 || json.Unmarshal(body, &first) != nil {
		t.Fatalf("first: %d %s", resp.StatusCode, body)
	}
	resp, body = r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"PAYMENT-SIGNATURE": pay})
	if resp.StatusCode != 200 || json.Unmarshal(body, &again) != nil || again.Token != first.Token {
		t.Fatalf("sent again: %d %s", resp.StatusCode, body)
	}
	// The same nonce in another document (its JSON re-encoded with a
	// space) is a replay.
	doc, _ := base64.StdEncoding.DecodeString(pay)
	other := base64.StdEncoding.EncodeToString(append([]byte(" "), doc...))
	resp, body = r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"PAYMENT-SIGNATURE": other})
	if resp.StatusCode != 402 || !strings.Contains(string(body), "payment_replayed") {
		t.Fatalf("replay: %d %s", resp.StatusCode, body)
	}
}

// TestSettleTimeoutRetriedChargesOnce: the facilitator takes the first
// settle but its answer is lost to the API's timeout; the API retries the
// same payment and grants one credit for one transfer.
func TestSettleTimeoutRetriedChargesOnce(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{PaymentTimeout: 300 * time.Millisecond})
	r.fac.StallSettles(1, 3*time.Second)
	p := r.buy(10, 1)
	if b := r.balance(p.Token); b.BalanceMicros != 10_000_000 || len(b.Movements) != 1 {
		t.Fatalf("balance %+v", b)
	}
	if r.fac.Settles() != 2 || r.fac.Transfers() != 1 {
		t.Fatalf("settles %d, transfers %d; want 2 and 1", r.fac.Settles(), r.fac.Transfers())
	}
}

func contactBody(extra string) []byte {
	return []byte(`{"name":"Agent","email":"agent@example.com","message":"Hello"` + extra + `}`)
}

func TestContactAgentPaths(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	post := func(h map[string]string) (*http.Response, []byte) {
		return r.send(http.MethodPost, "/api/contact", contactBody(""), mergeHeaders(map[string]string{"Content-Type": "application/json"}, h))
	}
	wantPath := func(resp *http.Response, body []byte, path string) {
		t.Helper()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"path":"`+path+`"`) {
			t.Fatalf("want path %s: %d %s", path, resp.StatusCode, body)
		}
	}
	resp, body := post(nil)
	wantPath(resp, body, "agent_free")
	req := r.offer(post(nil))
	if req.AmountMicro != billing.ContactPriceMicros {
		t.Fatalf("price %d", req.AmountMicro)
	}
	resp, body = post(nil)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "60" || !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "Retry-After") {
		t.Fatalf("within the backoff: %d %v %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	// Paid by x402, both versions; then by credit.
	for _, version := range []int{1, 2} {
		resp, body = post(map[string]string{paymentHeader(version): r.payer.Pay(req, version)})
		wantPath(resp, body, "agent_x402")
	}
	tok := r.buy(1, 2).Token
	resp, body = post(map[string]string{"Authorization": "Bearer " + tok})
	wantPath(resp, body, "agent_credit")
	resp, body = post(map[string]string{"X-Credito": tok})
	wantPath(resp, body, "agent_credit")
	if b := r.balance(tok); b.BalanceMicros != 800_000 || len(b.Movements) != 3 || b.Movements[0].Kind != "debito" || b.Movements[0].Resource != "/api/contact" {
		t.Fatalf("balance %+v", b)
	}
	// An unknown token pays nothing: 402 with the offer (contract 7 gives
	// POST /api/contact no 401).
	resp, body = post(map[string]string{"X-Credito": "cred_unknown"})
	if resp.StatusCode != 402 || !strings.Contains(string(body), "payment_invalid") || !strings.Contains(string(body), "accepts") {
		t.Fatalf("unknown credit: %d %s", resp.StatusCode, body)
	}
	// A paid message ended the backoff: the next unpaid one is offered the
	// payment again (402), not told to wait (429).
	if resp, body = post(nil); resp.StatusCode != 402 {
		t.Fatalf("unpaid after paid messages: %d %s, want 402", resp.StatusCode, body)
	}
	var queued int
	if err := r.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM river_job WHERE kind = 'send_contact'`).Scan(&queued); err != nil || queued != 5 {
		t.Fatalf("send jobs %d (%v), want 5", queued, err)
	}
}

// TestContactBackoffRetryAfter observes the waits 60, 120 ... 3600 through
// Retry-After with the test clock.
func TestContactBackoffRetryAfter(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	post := func() *http.Response {
		resp, _ := r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json"})
		return resp
	}
	if post().StatusCode != 200 {
		t.Fatal("the first message is not free")
	}
	var waits []string
	for range 8 {
		if s := post().StatusCode; s != 402 {
			t.Fatalf("status %d, want 402", s)
		}
		resp := post()
		if resp.StatusCode != 429 {
			t.Fatalf("status %d, want 429", resp.StatusCode)
		}
		waits = append(waits, resp.Header.Get("Retry-After"))
		var secs int
		fmt.Sscan(resp.Header.Get("Retry-After"), &secs)
		r.clock.Advance(time.Duration(secs) * time.Second)
	}
	if got := strings.Join(waits, ","); got != "60,120,240,480,960,1920,3600,3600" {
		t.Fatalf("Retry-After sequence %s", got)
	}
}

func TestContactHumanPath(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	post := func(extra string) (*http.Response, []byte) {
		return r.send(http.MethodPost, "/api/contact", contactBody(extra), map[string]string{"Content-Type": "application/json"})
	}
	opened := r.clock.Now().Add(-time.Minute).UnixMilli()
	resp, body := post(fmt.Sprintf(`,"captcha_response":"pass","form_ts":%d,"tipo":"anuncio","orcamento":"100_500","espaco":["llms_txt","pagina_inicial"],"duracao":"90","pagamento":"usdc"`, opened))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"path":"human"`) {
		t.Fatalf("human: %d %s", resp.StatusCode, body)
	}
	for name, tc := range map[string]struct {
		extra, err, field string
	}{
		"captcha refused": {fmt.Sprintf(`,"captcha_response":"fail","form_ts":%d`, opened), "invalid_captcha", "captcha_response"},
		"no form_ts":      {`,"captcha_response":"pass"`, "missing_field", "form_ts"},
		"too fast":        {fmt.Sprintf(`,"captcha_response":"pass","form_ts":%d`, r.clock.Now().UnixMilli()), "invalid_field", "form_ts"},
		"future":          {fmt.Sprintf(`,"captcha_response":"pass","form_ts":%d`, r.clock.Now().Add(time.Hour).Unix()), "invalid_field", "form_ts"},
		"stale":           {fmt.Sprintf(`,"captcha_response":"pass","form_ts":%d`, r.clock.Now().Add(-25*time.Hour).Unix()), "invalid_field", "form_ts"},
		"bad tipo":        {`,"tipo":"outro"`, "invalid_field", "tipo"},
		"seven espacos":   {`,"tipo":"anuncio","espaco":["a","b","c","d","e","f","g"]`, "invalid_field", "espaco"},
		"unknown espaco":  {`,"tipo":"anuncio","espaco":["nope"]`, "invalid_field", "espaco"},
		"no tipo":         {`,"orcamento":"ate_100"`, "missing_field", "tipo"},
	} {
		resp, body := post(tc.extra)
		var e wire.ErrorBody
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != 400 || e.Error != tc.err || e.Field != tc.field {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
	for _, field := range []string{"name", "email", "message"} {
		b := strings.Replace(string(contactBody("")), `"`+field+`"`, `"x`+field+`"`, 1)
		resp, body := r.send(http.MethodPost, "/api/contact", []byte(b), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 400 || !strings.Contains(string(body), `"field":"`+field+`"`) {
			t.Errorf("missing %s: %d %s", field, resp.StatusCode, body)
		}
	}
}

// TestContactUnconfigured: mail or captcha off is a 503 and charges nothing.
func TestContactUnconfigured(t *testing.T) {
	t.Parallel()
	for _, off := range []string{"SMTP_ADDR", "CAPTCHA_SECRET"} {
		r := newPayRig(t, map[string]string{off: ""}, Options{})
		tok := r.buy(1, 1).Token
		resp, body := r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json", "X-Credito": tok})
		if resp.StatusCode != 503 || !strings.Contains(string(body), "contact_unavailable") {
			t.Fatalf("%s off: %d %s", off, resp.StatusCode, body)
		}
		if b := r.balance(tok); b.BalanceMicros != 1_000_000 || len(b.Movements) != 1 {
			t.Fatalf("%s off: balance %+v", off, b)
		}
	}
}

// TestContactDevMode: dev lets an agent through unpaid, showing the 402
// it would be.
func TestContactDevMode(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, map[string]string{"X402_MODE": "dev", "X402_PAY_TO": ""}, Options{})
	for i, want := range []string{"agent_free", "agent_dev"} {
		resp, body := r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) || (i == 1 && resp.Header.Get("PAYMENT-REQUIRED") == "") {
			t.Fatalf("dev %d: %d %s", i, resp.StatusCode, body)
		}
	}
}

func mergeHeaders(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestConcurrentContactsOnOneDollar: 100 concurrent paid messages on $1 of
// credit: exactly 10 are queued and charged, the others are 402; every
// debit has its message and its send job.
func TestConcurrentContactsOnOneDollar(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	tok := r.buy(1, 1).Token
	codes := make(chan int, 100)
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			resp, _ := r.send(http.MethodPost, "/api/contact", contactBody(""), map[string]string{"Content-Type": "application/json", "X-Credito": tok})
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	n := map[int]int{}
	for c := range codes {
		n[c]++
	}
	b := r.balance(tok)
	var messages, sendJobs int
	_ = r.store.Pool().QueryRow(t.Context(), `SELECT (SELECT count(*) FROM contact_messages WHERE path = 'agent_credit'),
		(SELECT count(*) FROM river_job WHERE kind = 'send_contact')`).Scan(&messages, &sendJobs)
	if n[200] != 10 || n[402] != 90 || b.BalanceMicros != 0 || len(b.Movements) != 11 || messages != 10 || sendJobs != 10 {
		t.Fatalf("answers %v, balance %d, movements %d, messages %d, send jobs %d; want 10/90, 0, 11, 10, 10",
			n, b.BalanceMicros, len(b.Movements), messages, sendJobs)
	}
}

// TestDevCreditRefusedInLive: credit and a payment taken by a dev
// deployment buy nothing on a live one sharing its database: 402 with a
// message saying why; the balance is untouched.
func TestDevCreditRefusedInLive(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	dev := newPayRigOn(t, st, map[string]string{"X402_MODE": "dev"}, Options{})
	devOffer := dev.offer(dev.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
	devPayment := dev.payer.Pay(devOffer, 2)
	resp, body := dev.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"PAYMENT-SIGNATURE": devPayment})
	var bought billing.CreditPurchase
	if resp.StatusCode != 200 || json.Unmarshal(body, &bought) != nil {
		t.Fatalf("dev purchase: %d %s", resp.StatusCode, body)
	}
	live := newPayRigOn(t, st, nil, Options{})
	for _, h := range []map[string]string{{"X-Credito": bought.Token}, {"Authorization": "Bearer " + bought.Token}} {
		resp, body := live.send(http.MethodPost, "/api/contact", contactBody(""), mergeHeaders(map[string]string{"Content-Type": "application/json"}, h))
		if resp.StatusCode != 402 || !strings.Contains(string(body), "payment_invalid") || !strings.Contains(string(body), "dev") {
			t.Fatalf("dev credit in live: %d %s", resp.StatusCode, body)
		}
	}
	resp, body = live.send(http.MethodGet, "/api/credito", nil, map[string]string{"X-Credito": bought.Token})
	if resp.StatusCode != 401 || !strings.Contains(string(body), "dev mode") {
		t.Fatalf("dev balance in live: %d %s", resp.StatusCode, body)
	}
	// The dev payment sent to the live deployment: refused, not resumed.
	resp, body = live.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"PAYMENT-SIGNATURE": devPayment})
	if resp.StatusCode != 402 || !strings.Contains(string(body), "dev mode") {
		t.Fatalf("dev payment in live: %d %s", resp.StatusCode, body)
	}
	if b := dev.balance(bought.Token); b.BalanceMicros != 1_000_000 || len(b.Movements) != 1 {
		t.Fatalf("dev balance %+v", b)
	}
	var modes string
	if err := st.Pool().QueryRow(t.Context(), `SELECT (SELECT string_agg(DISTINCT mode, ',') FROM x402_payments) || '/' ||
		(SELECT string_agg(DISTINCT mode, ',') FROM credit_tokens) || '/' || (SELECT string_agg(DISTINCT mode, ',') FROM credit_movements)`).Scan(&modes); err != nil || modes != "dev/dev/dev" {
		t.Fatalf("recorded modes %q (%v)", modes, err)
	}
}

// TestSamePaymentSentManyTimesAtOnce: after a lost settle answer, the same
// payment sent 12 times at once, beside the settle job's code, is settled
// by one transfer and granted once; every answer that is not a 503 is the
// same token.
func TestSamePaymentSentManyTimesAtOnce(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{PaymentTimeout: 200 * time.Millisecond})
	req := r.offer(r.send(http.MethodPost, "/api/credito?usd=10", nil, nil))
	pay := r.payer.Pay(req, 1)
	r.fac.StallSettles(3, time.Minute)
	if resp, body := r.send(http.MethodPost, "/api/credito?usd=10", nil, map[string]string{"X-PAYMENT": pay}); resp.StatusCode != 503 ||
		resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "same payment again") {
		t.Fatalf("lost answer: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	tokens := make(chan string, 12)
	var wg sync.WaitGroup
	wg.Go(func() { r.settlePending(t) })
	for range 12 {
		wg.Go(func() {
			resp, body := r.send(http.MethodPost, "/api/credito?usd=10", nil, map[string]string{"X-PAYMENT": pay})
			var p billing.CreditPurchase
			if resp.StatusCode == 200 && json.Unmarshal(body, &p) == nil {
				tokens <- p.Token
			} else if resp.StatusCode != 503 {
				t.Errorf("sent again: %d %s", resp.StatusCode, body)
			}
		})
	}
	wg.Wait()
	close(tokens)
	seen := map[string]bool{}
	for tok := range tokens {
		seen[tok] = true
	}
	granted, _ := r.grants()
	if len(seen) != 1 || granted != 1 || r.fac.Transfers() != 1 {
		t.Fatalf("tokens %d, granted %d, transfers %d; want 1, 1, 1", len(seen), granted, r.fac.Transfers())
	}
	for tok := range seen {
		if b := r.balance(tok); b.BalanceMicros != 10_000_000 || len(b.Movements) != 1 {
			t.Fatalf("balance %+v", b)
		}
	}
}

// TestFacilitatorOutageAnswersWithin5s: a facilitator that does not answer
// at all is a 503 with Retry-After within five seconds, nothing charged.
func TestFacilitatorOutageAnswersWithin5s(t *testing.T) {
	t.Parallel()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the client's hang-up cancels r's context
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}))
	t.Cleanup(hang.Close)
	r := newPayRig(t, map[string]string{"X402_FACILITATOR_URL": hang.URL}, Options{})
	for _, path := range []string{"/api/credito?usd=1", "/api/contact"} {
		if path == "/api/contact" {
			r.send(http.MethodPost, path, contactBody(""), map[string]string{"Content-Type": "application/json"}) // the free one
		}
		req := r.offer(r.send(http.MethodPost, path, contactBody(""), map[string]string{"Content-Type": "application/json"}))
		start := time.Now()
		resp, body := r.send(http.MethodPost, path, contactBody(""), map[string]string{"Content-Type": "application/json", "X-PAYMENT": r.payer.Pay(req, 1)})
		if took := time.Since(start); resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || took > 5*time.Second ||
			!strings.Contains(string(body), "payment_unavailable") {
			t.Fatalf("%s: %d Retry-After %q after %s: %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), took, body)
		}
	}
	if tokens, messages := r.grants(); tokens != 0 || messages != 0 {
		t.Fatalf("granted %d tokens, %d messages", tokens, messages)
	}
}

// TestPaymentValidityWindow: a payment may stay valid at most the offer's
// maxTimeoutSeconds plus 30 s of clock skew from now; one valid for ten
// years is refused before anything is recorded.
func TestPaymentValidityWindow(t *testing.T) {
	t.Parallel()
	r := newPayRig(t, nil, Options{})
	req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
	// Each validity is counted from just before its request; the refused
	// one lies 6 s past the bound (30 s of skew), so a slow machine's
	// seconds between signing and checking cannot move it inside.
	for _, tc := range []struct {
		name   string
		after  int64 // seconds from now
		status int
	}{
		{"ten years", 10 * 365 * 24 * 3600, 402},
		{"maxTimeoutSeconds + 36 s", x402.MaxTimeoutSeconds + 36, 402},
		{"maxTimeoutSeconds + 20 s", x402.MaxTimeoutSeconds + 20, 200},
	} {
		before := time.Now().Unix() + tc.after
		resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{"X-PAYMENT": r.payer.PayValidUntil(req, 1, before)})
		if resp.StatusCode != tc.status || (tc.status == 402 && !strings.Contains(string(body), "maxTimeoutSeconds")) {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
	}
	var claimed int
	if err := r.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM x402_payments`).Scan(&claimed); err != nil || claimed != 1 {
		t.Fatalf("payments recorded %d (%v), want 1", claimed, err)
	}
}

// TestSettlementHeaderNetworks: the settlement header names the network
// as its protocol does, in every mode: CAIP-2 (eip155:84532) in v2's
// PAYMENT-RESPONSE, the v1 name in X-PAYMENT-RESPONSE.
func TestSettlementHeaderNetworks(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"live", "dev"} {
		r := newPayRig(t, map[string]string{"X402_MODE": mode}, Options{})
		req := r.offer(r.send(http.MethodPost, "/api/credito?usd=1", nil, nil))
		for version, want := range map[int]string{1: "base-sepolia", 2: "eip155:84532"} {
			resp, body := r.send(http.MethodPost, "/api/credito?usd=1", nil, map[string]string{paymentHeader(version): r.payer.Pay(req, version)})
			name := x402.HeaderPaymentResponseV1
			if version == 2 {
				name = x402.HeaderPaymentResponseV2
			}
			raw, _ := base64.StdEncoding.DecodeString(resp.Header.Get(name))
			var st x402.Settlement
			if resp.StatusCode != 200 || json.Unmarshal(raw, &st) != nil || st.Network != want || !st.Success || st.Transaction == "" {
				t.Errorf("%s v%d: %d %s %s", mode, version, resp.StatusCode, raw, body)
			}
		}
	}
}

// TestDevModeIsLoud: a dev deployment logs a warning at start and shows
// its mode on the operator's side of GET /api/health; the public answer
// is unchanged, and a live deployment warns of nothing.
func TestDevModeIsLoud(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"dev", "live"} {
		r := newPayRig(t, map[string]string{"X402_MODE": mode, "METRICS_TOKEN": testMetricsToken}, Options{})
		deadline := time.Now().Add(5 * time.Second)
		for mode == "dev" && !strings.Contains(r.logs.String(), "X402_MODE=dev") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if warned := strings.Contains(r.logs.String(), `"level":"WARN","msg":"X402_MODE=dev`); warned != (mode == "dev") {
			t.Errorf("%s: warned %v\n%s", mode, warned, r.logs.String())
		}
		var h struct {
			OK       bool
			Operator *struct {
				X402Mode string `json:"x402_mode"`
			}
		}
		resp, body := r.send(http.MethodGet, "/api/health", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
		if resp.StatusCode != 200 || json.Unmarshal(body, &h) != nil || h.Operator == nil || h.Operator.X402Mode != mode {
			t.Errorf("%s: operator health %d %s", mode, resp.StatusCode, body)
		}
		resp, body = r.send(http.MethodGet, "/api/health", nil, map[string]string{"Authorization": "Bearer wrong"})
		if resp.StatusCode != 200 || strings.Contains(string(body), "operator") {
			t.Errorf("%s: health with a wrong token %d %s", mode, resp.StatusCode, body)
		}
	}
}
