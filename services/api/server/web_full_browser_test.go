package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/logging/logtest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/pkg/x402/x402test"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/billing"
)

// The browser tests of the full variant's pages (/account, /credit). The
// session writes need an Origin exactly the service's, and the payment
// view signal too, so the API here listens at its own public base URL:
// PUBLIC_BASE_URL is the loopback address the browser opens.

// fullWeb is a full API at its own origin, trusting an identity stand-in
// and taking x402 payments through a local facilitator.
type fullWeb struct {
	*testAPI
	idp   *identitytest.Server
	payer x402test.Payer
}

// newFullWeb starts the API on a listener whose address is its public base.
func newFullWeb(t *testing.T) *fullWeb {
	t.Helper()
	chromiumPath(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	idp := identitytest.New(t, config.AlgEdDSA)
	fac := x402test.New()
	t.Cleanup(fac.Close)
	env := idp.Env()
	for k, v := range map[string]string{"PUBLIC_BASE_URL": base + "/", "VARIANT": config.VariantFull,
		"X402_MODE": "live", "X402_PAY_TO": testPayTo, "X402_FACILITATOR_URL": fac.URL} {
		env[k] = v
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.NewStore(t)
	logs := &logtest.Buffer{}
	srv, err := New(st, Options{Config: cfg, Build: "test-build", Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(hs.Close)
	a := &testAPI{t: t, url: base, client: &http.Client{Transport: newContractTransport(t, true, http.DefaultTransport)},
		store: st, full: true, server: srv, logs: logs}
	return &fullWeb{testAPI: a, idp: idp, payer: x402test.NewPayer()}
}

// buyCredit buys a package through the x402 flow (402, then a signed
// payment the local facilitator verifies and settles) and returns the token.
func (w *fullWeb) buyCredit(usdN int) string {
	w.t.Helper()
	path := fmt.Sprintf("/api/credito?usd=%d", usdN)
	resp, body := w.send(http.MethodPost, path, nil, nil)
	var pr struct {
		Accepts []struct{ Network, MaxAmountRequired, PayTo, Resource string }
	}
	if resp.StatusCode != http.StatusPaymentRequired || json.Unmarshal(body, &pr) != nil || len(pr.Accepts) != 1 {
		w.t.Fatalf("offer: %d %s", resp.StatusCode, body)
	}
	a := pr.Accepts[0]
	var amount int64
	fmt.Sscan(a.MaxAmountRequired, &amount)
	req := x402.Requirement{Network: x402.Networks[a.Network], AmountMicro: amount, PayTo: a.PayTo, Resource: a.Resource}
	resp, body = w.send(http.MethodPost, path, nil, map[string]string{x402.HeaderPaymentV1: w.payer.Pay(req, 1)})
	var p billing.CreditPurchase
	if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil {
		w.t.Fatalf("paid purchase: %d %s", resp.StatusCode, body)
	}
	return p.Token
}

// seen is one request the browser sent and the status it got.
type seen struct {
	method, url string
	headers     map[string]string // lowercase names, as sent on the wire
	status      int64
}

// netLog records the browser's requests by id.
type netLog struct {
	mu   sync.Mutex
	reqs map[network.RequestID]*seen
}

func (n *netLog) listen(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	get := func(id network.RequestID) *seen {
		if n.reqs[id] == nil {
			n.reqs[id] = &seen{headers: map[string]string{}}
		}
		return n.reqs[id]
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		s := get(ev.RequestID)
		s.method, s.url = ev.Request.Method, ev.Request.URL
	case *network.EventRequestWillBeSentExtraInfo:
		s := get(ev.RequestID)
		for k, v := range ev.Headers {
			s.headers[strings.ToLower(k)] = fmt.Sprint(v)
		}
	case *network.EventResponseReceived:
		get(ev.RequestID).status = ev.Response.Status
	}
}

// to returns the requests sent to a path (with any query).
func (n *netLog) to(method, path string) []seen {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []seen
	for _, s := range n.reqs {
		if s.method == method && (strings.HasSuffix(s.url, path) || strings.Contains(s.url, path+"?")) {
			out = append(out, *s)
		}
	}
	return out
}

// urls are the URLs of every request sent.
func (n *netLog) urls() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, s := range n.reqs {
		out = append(out, s.url)
	}
	return out
}

// expectFailedLoads drops from the tab's problems the console lines of
// failed loads a test provoked on purpose (Chromium logs every 4xx answer
// of a fetch as "Failed to load resource"), one per status and path.
func (b *chromeTab) expectFailedLoads(status int, path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.problems[:0]
	for _, p := range b.problems {
		if strings.Contains(p, "Failed to load resource") && strings.Contains(p, fmt.Sprintf("status of %d", status)) && strings.Contains(p, path) {
			continue
		}
		kept = append(kept, p)
	}
	b.problems = kept
}

// fullTab opens a browser with the network recorded and the clipboard
// allowed for the service's origin.
func (w *fullWeb) fullTab() (*chromeTab, *netLog) {
	w.t.Helper()
	b := newBrowser(w.t, true)
	n := &netLog{reqs: map[network.RequestID]*seen{}}
	chromedp.ListenTarget(b.ctx, n.listen)
	b.run("network and clipboard", network.Enable(),
		cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: "clipboard-read"}, cdpbrowser.PermissionSettingGranted).WithOrigin(w.url),
		cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: "clipboard-write"}, cdpbrowser.PermissionSettingGranted).WithOrigin(w.url))
	return b, n
}

// signIn puts a session cookie in the browser, as the house's identity
// service would after a sign-in; "" removes it.
func (w *fullWeb) signIn(b *chromeTab, token string) {
	w.t.Helper()
	if token == "" {
		b.run("sign out", network.DeleteCookies(account.SessionCookie).WithURL(w.url+"/"))
		return
	}
	b.run("sign in", network.SetCookie(account.SessionCookie, token).WithURL(w.url+"/").WithPath("/").
		WithSecure(true).WithHTTPOnly(true).WithSameSite(network.CookieSameSiteLax))
}

// TestBrowserAccountPage drives /account: bootstrap, create a key (its
// secret shown once, with a copy button that copies it), the list with its
// last four characters, revoke (the key turns revoked), by mouse and by
// keyboard; the messages of reauth_required, key_limit_reached, an
// organization key without a second factor and no session; axe-core, no
// console error, screenshots.
func TestBrowserAccountPage(t *testing.T) {
	w := newFullWeb(t)
	b, netlog := w.fullTab()
	w.signIn(b, w.idp.Session("id-browser", func(c *identity.SessionClaims) {
		c.Name = "Ana Lima"
		c.Orgs = []identity.Membership{{ID: "org-acme", Role: identity.RoleOwner, Products: []string{identitytest.Audience}}}
	}))
	u := w.url

	b.run("open /account", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#key-create`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("#keys tbody tr").length === 0`))
	b.screenshot("account")
	b.axeCheck("/account")

	// Create: the secret shows once, in the page only.
	b.run("create", chromedp.SendKeys(`#key-name`, "laptop", chromedp.ByQuery),
		chromedp.Click(`#key-create button[type=submit]`, chromedp.ByQuery),
		waitJS(`!document.getElementById("key-secret").hidden && document.getElementById("new-secret").value.startsWith("hsk_")`),
		waitJS(`document.querySelectorAll("#keys tbody tr").length === 1`))
	var secret, last4, state string
	b.run("read", chromedp.Value(`#new-secret`, &secret, chromedp.ByQuery),
		chromedp.Text(`#keys tbody tr .last4`, &last4, chromedp.ByQuery),
		chromedp.Text(`#keys tbody tr .key-state`, &state, chromedp.ByQuery))
	if len(secret) != account.APIKeyLen || last4 != "hsk_…"+secret[len(secret)-4:] || state != "active" {
		t.Fatalf("secret %d characters, row %q %q", len(secret), last4, state)
	}
	boots := netlog.to(http.MethodGet, "/api/auth/bootstrap")
	creates := netlog.to(http.MethodPost, "/api/account/keys/create")
	if len(boots) == 0 || boots[0].status != 200 || len(creates) != 1 || creates[0].status != 200 ||
		creates[0].headers["origin"] != u || creates[0].headers["x-csrf-token"] == "" {
		t.Errorf("bootstrap %+v, create %+v", boots, creates)
	}
	var stored string
	b.run("storage", chromedp.Evaluate(`localStorage.length + sessionStorage.length + ":" + document.cookie`, &stored))
	if stored != "0:" {
		t.Errorf("the page stored something: %q", stored)
	}
	b.axeCheck("/account with the new secret")
	b.screenshot("account-secret")

	// The copy button copies it.
	var copied string
	b.run("copy", chromedp.Click(`#copy-secret`, chromedp.ByQuery),
		waitJS(`document.getElementById("copy-state").textContent !== ""`),
		chromedp.Evaluate(`navigator.clipboard.readText()`, &copied, awaitPromise))
	if copied != secret {
		t.Errorf("the clipboard holds %d characters, not the secret", len(copied))
	}
	// Shown once: a reload lists the key, never the secret.
	var html string
	b.run("reload", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#key-create`, chromedp.ByQuery),
		chromedp.OuterHTML(`html`, &html, chromedp.ByQuery))
	if strings.Contains(html, secret) || !strings.Contains(html, secret[len(secret)-4:]) {
		t.Error("after a reload the page shows the secret, or not the key's last four")
	}
	b.clean("create")

	// Revoke: a first press arms the button, the second revokes.
	b.run("revoke", waitJS(`!document.querySelector("#keys button.revoke").hidden`),
		chromedp.Click(`#keys button.revoke`, chromedp.ByQuery), waitJS(`document.querySelector("#keys button.revoke.armed") !== null`),
		chromedp.Click(`#keys button.revoke`, chromedp.ByQuery),
		waitJS(`document.querySelector("#keys tbody tr .key-state").textContent.startsWith("revoked")`),
		waitJS(`document.querySelector("#keys button.revoke") === null && document.getElementById("keys-status").textContent === "Key revoked."`))
	keys, err := w.store.ListAPIKeys(t.Context(), "id-browser", identitytest.Audience)
	if err != nil || len(keys) != 1 || keys[0].RevokedAt == nil || keys[0].Active() {
		t.Errorf("after revoke the store holds %+v (%v)", keys, err)
	}
	if n := len(netlog.to(http.MethodGet, "/account/keys")); n != 2 {
		t.Errorf("the list was refreshed %d times through /account/keys, want 2 (create, revoke)", n)
	}
	b.screenshot("account-revoked")
	b.axeCheck("/account after revoke")
	b.clean("revoke")

	// The keyboard alone: Tab reaches the name, the kinds and the button;
	// Enter in the name creates.
	b.run("top", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#key-create`, chromedp.ByQuery))
	var reached []string
	for range 12 {
		var id string
		b.run("tab", chromedp.KeyEvent(kb.Tab),
			chromedp.Evaluate(`(e => e.id || e.name + "=" + (e.value || e.textContent.trim()))(document.activeElement)`, &id))
		reached = append(reached, id)
	}
	got := " " + strings.Join(reached, " ") + " "
	for _, want := range []string{" key-name ", " org= ", " =Create key "} {
		if !strings.Contains(got, want) {
			t.Errorf("tabbing does not reach %q: %s", want, got)
		}
	}
	b.run("create by keyboard", chromedp.Focus(`#key-name`, chromedp.ByQuery), chromedp.SendKeys(`#key-name`, "ci"),
		chromedp.KeyEvent(kb.Enter), waitJS(`!document.getElementById("key-secret").hidden`),
		waitJS(`document.activeElement.id === "key-secret"`))
	b.clean("keyboard")

	// An organization key without a second factor: the contract's refusal, said plainly.
	b.run("organization key", chromedp.SendKeys(`#key-name`, "acme ci", chromedp.ByQuery),
		chromedp.Click(`input[name=org][value=org-acme]`, chromedp.ByQuery),
		chromedp.Click(`#key-create button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("key-error").textContent.includes("organization_mfa_required")`))
	var msg string
	b.run("message", chromedp.Text(`#key-error`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "second factor (2FA)") {
		t.Errorf("organization key message %q", msg)
	}
	b.screenshot("account-organization-mfa")
	b.expectFailedLoads(403, "/api/account/keys/create")
	b.clean("organization key")

	// The limit of live keys: 10 live keys already.
	for i := range store.LiveKeyLimit - 1 {
		secret, hash := account.NewAPIKey()
		if _, err := w.store.CreateAPIKey(t.Context(), store.NewAPIKey{IdentityID: "id-browser", Product: identitytest.Audience,
			Name: fmt.Sprintf("seeded %d", i), SecretHash: hash, Last4: secret[len(secret)-4:]}); err != nil {
			t.Fatal(err)
		}
	}
	b.run("at the limit", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#key-create`, chromedp.ByQuery),
		chromedp.SendKeys(`#key-name`, "one more", chromedp.ByQuery),
		chromedp.Click(`#key-create button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("key-error").textContent.includes("key_limit_reached")`),
		chromedp.Text(`#key-error`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "Revoke one") {
		t.Errorf("limit message %q", msg)
	}
	b.screenshot("account-key-limit")
	b.expectFailedLoads(409, "/api/account/keys/create")
	b.clean("limit")

	// A phone's width: the page fits, the long list scrolls in its box.
	var wide bool
	b.run("360 px", chromedp.EmulateViewport(360, 740), chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#key-create`, chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.scrollWidth > 360`, &wide))
	if wide {
		var culprits string
		b.run("culprits", chromedp.Evaluate(`Array.from(document.querySelectorAll("*")).filter(e => e.getBoundingClientRect().right > 361).map(e => e.tagName + "#" + e.id + "." + e.className + ":" + Math.round(e.getBoundingClientRect().right)).slice(0, 15).join(" ")`, &culprits))
		t.Errorf("the account page is wider than 360 px: %s", culprits)
	}
	b.screenshot("account-360px")
	b.run("back to 1280 px", chromedp.EmulateViewport(1280, 900))
	b.clean("360 px")

	// A sign-in older than 5 minutes: reauth_required, and what to do.
	w.signIn(b, w.idp.Session("id-late", func(c *identity.SessionClaims) { c.AuthTime.Time = time.Now().Add(-10 * time.Minute) }))
	b.run("old sign-in", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#reauth-note`, chromedp.ByQuery),
		chromedp.SendKeys(`#key-name`, "late", chromedp.ByQuery),
		chromedp.Click(`#key-create button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("key-error").textContent.includes("reauth_required")`),
		chromedp.Text(`#key-error`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "within the last 5 minutes") || !strings.Contains(msg, "Sign in again") {
		t.Errorf("reauth message %q", msg)
	}
	b.screenshot("account-reauth")
	b.expectFailedLoads(401, "/api/account/keys/create")
	b.clean("reauth")

	// No session: sign-in is outside this service, and the page says so.
	w.signIn(b, "")
	b.run("signed out", chromedp.Navigate(u+"/account"), chromedp.WaitVisible(`#signin-title`, chromedp.ByQuery),
		chromedp.Text(`main`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "outside OKF Index") {
		t.Errorf("signed-out page %q", msg)
	}
	b.screenshot("account-signed-out")
	b.axeCheck("/account signed out")
	b.clean("signed out")

	w.server.reports.Flush()
	if strings.Contains(w.logs.String(), `"code":"UI-`) {
		t.Errorf("the page reported a failure:\n%s", w.logs.String())
	}
	if strings.Contains(w.logs.String(), secret) {
		t.Error("the log holds the secret")
	}
}

// TestBrowserAccountNoJavaScript: with JavaScript off the account page
// still lists the keys and says that writing needs JavaScript.
func TestBrowserAccountNoJavaScript(t *testing.T) {
	w := newFullWeb(t)
	secret, hash := account.NewAPIKey()
	if _, err := w.store.CreateAPIKey(t.Context(), store.NewAPIKey{IdentityID: "id-nojs", Product: identitytest.Audience,
		Name: "server", SecretHash: hash, Last4: secret[len(secret)-4:]}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, false)
	w.signIn(b, w.idp.Session("id-nojs"))
	var last4, note string
	b.run("open", chromedp.Navigate(w.url+"/account"), chromedp.WaitVisible(`#keys table`, chromedp.ByQuery),
		chromedp.Text(`#keys tbody tr .last4`, &last4, chromedp.ByQuery),
		chromedp.Text(`#account noscript`, &note, chromedp.ByQuery))
	// The forms are hidden for real (hidden beats the forms' display),
	// and the page says why.
	var formShown bool
	b.run("form", chromedp.Evaluate(`getComputedStyle(document.getElementById("key-create")).display !== "none"`, &formShown))
	if last4 != "hsk_…"+secret[len(secret)-4:] || formShown || !strings.Contains(note, "so those controls are hidden") {
		t.Errorf("no-JS list %q, form shown %v, note %q", last4, formShown, note)
	}
	b.screenshot("nojs-account")
	var shown []string
	b.run("credit", chromedp.Navigate(w.url+"/credit"), chromedp.WaitReady(`#credit-balance`, chromedp.ByQuery),
		chromedp.Evaluate(`["credit-balance", "credit-buy"].filter(id => getComputedStyle(document.getElementById(id)).display !== "none")`, &shown),
		chromedp.Text(`main noscript`, &note, chromedp.ByQuery))
	if len(shown) > 0 || !strings.Contains(note, "so they are hidden") {
		t.Errorf("no-JS credit page: forms shown %v, note %q", shown, note)
	}
	b.screenshot("nojs-credit")
	b.clean("no JavaScript")
}

// TestBrowserCreditPage drives /credit: a token bought through x402 shows
// its balance (the token only in X-Credito, in no URL and no storage); an
// unknown token is refused plainly; a package shows the 402's requirements
// readably, and each opening of that view signals POST
// /api/pagamento/aberto once, with the browser's Origin and Sec-Fetch-Site,
// answered 202 and counted. axe-core, keyboard, no console error,
// screenshots.
func TestBrowserCreditPage(t *testing.T) {
	w := newFullWeb(t)
	token := w.buyCredit(1)
	b, netlog := w.fullTab()
	u := w.url

	b.run("open /credit", chromedp.Navigate(u+"/credit"), chromedp.WaitVisible(`#credit-balance`, chromedp.ByQuery))
	b.axeCheck("/credit")
	b.run("balance", chromedp.SendKeys(`#credit-token`, token, chromedp.ByQuery),
		chromedp.Click(`#credit-balance button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#credit-result`, chromedp.ByQuery))
	var saldo, micros, rows, loc string
	b.run("read", chromedp.Text(`#saldo-usd`, &saldo, chromedp.ByQuery), chromedp.Text(`#saldo-micros`, &micros, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("#movements tr").length + " " + document.querySelector("#movements tr").textContent`, &rows),
		chromedp.Location(&loc))
	if saldo != "1.00" || micros != "1000000" || !strings.HasPrefix(rows, "1 ") || !strings.Contains(rows, "credit+1.00okf") {
		t.Errorf("balance %q %q, movements %q", saldo, micros, rows)
	}
	reads := netlog.to(http.MethodGet, "/api/credito")
	if len(reads) != 1 || reads[0].headers["x-credito"] != token || reads[0].status != 200 {
		t.Errorf("balance requests %+v", reads)
	}
	var stored string
	b.run("storage", chromedp.Evaluate(`localStorage.length + sessionStorage.length + ":" + document.cookie`, &stored))
	for _, url := range append(netlog.urls(), loc) {
		if strings.Contains(url, token) || strings.Contains(url, "cred_") {
			t.Errorf("the token is in a URL: %s", url)
		}
	}
	if stored != "0:" {
		t.Errorf("the page stored something: %q", stored)
	}
	b.screenshot("credit-balance")
	b.axeCheck("/credit with a balance")
	b.clean("balance")

	// An unknown token.
	var msg string
	b.run("unknown token", chromedp.SetValue(`#credit-token`, "cred_"+strings.Repeat("x", 43), chromedp.ByQuery),
		chromedp.Click(`#credit-balance button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("credit-error").textContent.includes("invalid_credit")`),
		chromedp.Text(`#credit-error`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "unknown") {
		t.Errorf("unknown token message %q", msg)
	}
	b.expectFailedLoads(401, "/api/credito")
	b.clean("unknown token")

	// Buying: the requirements of the 402, readable, and one signal per opening.
	before := w.usageToday(usage.PaymentView)
	b.run("buy 5", chromedp.Click(`input[name=usd][value="5"]`, chromedp.ByQuery),
		chromedp.Click(`#credit-buy button[type=submit]`, chromedp.ByQuery), chromedp.WaitVisible(`#pay-view`, chromedp.ByQuery))
	var view string
	b.run("view", chromedp.Text(`#pay-view`, &view, chromedp.ByQuery))
	for _, want := range []string{"5 USD", "Base Sepolia", "5.000000 USDC (5000000 atomic units)", testPayTo,
		x402.Networks["base-sepolia"].USDC, "POST " + u + "/api/credito?usd=5", "X-PAYMENT", "PAYMENT-SIGNATURE"} {
		if !strings.Contains(view, want) {
			t.Errorf("the payment view lacks %q:\n%s", want, view)
		}
	}
	waitCount := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for w.usageToday(usage.PaymentView) != want {
			if time.Now().After(deadline) {
				t.Fatalf("okf_payment_view %d, want %d", w.usageToday(usage.PaymentView), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitCount(before + 1)
	signals := netlog.to(http.MethodPost, paymentViewPath)
	if len(signals) != 1 {
		t.Fatalf("%d signals, want 1", len(signals))
	}
	s := signals[0]
	if s.status != http.StatusAccepted || s.headers["origin"] != u || s.headers["sec-fetch-site"] != "same-origin" ||
		s.headers["x-house-payment-view"] != "1" {
		t.Errorf("signal: %+v", s)
	}
	b.screenshot("credit-payment")
	b.axeCheck("/credit payment view")
	b.expectFailedLoads(402, "/api/credito")
	b.clean("payment view")

	// Another package while the view is open: updated, not opened again.
	b.run("buy 10", chromedp.Click(`input[name=usd][value="10"]`, chromedp.ByQuery),
		chromedp.Click(`#credit-buy button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("pay-view").textContent.includes("10.000000 USDC")`))
	// Closed and opened again by keyboard: a second opening.
	b.run("close", chromedp.Click(`#pay-close`, chromedp.ByQuery), waitJS(`document.getElementById("pay-view").hidden`),
		waitJS(`document.activeElement.textContent === "Show how to pay"`), chromedp.KeyEvent(kb.Enter),
		waitJS(`!document.getElementById("pay-view").hidden`))
	waitCount(before + 2)
	if n := len(netlog.to(http.MethodPost, paymentViewPath)); n != 2 {
		t.Errorf("%d signals after two openings, want 2", n)
	}
	b.expectFailedLoads(402, "/api/credito")
	b.clean("reopen")

	// The keyboard reaches the token field, the packages and both buttons.
	b.run("top", chromedp.Navigate(u+"/credit"), chromedp.WaitVisible(`#credit-buy`, chromedp.ByQuery))
	var reached []string
	for range 12 {
		var id string
		b.run("tab", chromedp.KeyEvent(kb.Tab),
			chromedp.Evaluate(`(e => e.id || e.name + "=" + (e.value || e.textContent.trim()))(document.activeElement)`, &id))
		reached = append(reached, id)
	}
	got := " " + strings.Join(reached, " ") + " "
	for _, want := range []string{" credit-token ", " =Show balance ", " usd=1 ", " =Show how to pay "} {
		if !strings.Contains(got, want) {
			t.Errorf("tabbing does not reach %q: %s", want, got)
		}
	}
	b.clean("keyboard")

	var wide bool
	b.run("360 px", chromedp.EmulateViewport(360, 740), chromedp.Navigate(u+"/credit"), chromedp.WaitVisible(`#credit-buy`, chromedp.ByQuery),
		chromedp.Click(`#credit-buy button[type=submit]`, chromedp.ByQuery), chromedp.WaitVisible(`#pay-view`, chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.scrollWidth > 360`, &wide))
	if wide {
		t.Error("the credit page with the payment view is wider than 360 px")
	}
	b.screenshot("credit-payment-360px")
	b.expectFailedLoads(402, "/api/credito")
	b.clean("360 px")
	waitCount(before + 3)

	w.server.reports.Flush()
	if strings.Contains(w.logs.String(), `"code":"UI-`) || strings.Contains(w.logs.String(), token) {
		t.Errorf("the page reported a failure, or the log holds the token:\n%s", w.logs.String())
	}
}
