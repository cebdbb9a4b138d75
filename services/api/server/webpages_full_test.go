package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/pages"
)

// checkPageHeaders checks the security headers every page carries and
// that the page holds no inline script or style.
func checkPageHeaders(t *testing.T, path string, resp *http.Response, body []byte) {
	t.Helper()
	csp := resp.Header.Get("Content-Security-Policy")
	if csp != pages.CSP || resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("%s: headers %v", path, resp.Header)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("%s: Content-Type %q", path, resp.Header.Get("Content-Type"))
	}
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]`).Match(body) || strings.Contains(string(body), " style=") ||
		regexp.MustCompile(`\son[a-z]+=`).Match(body) {
		t.Errorf("%s: inline script, style or handler in the page", path)
	}
}

// TestFullPagesOnlyOnFull: /account and /credit are pages of the full
// variant, linked from every page's navigation there; the base variant
// answers them 404 and links neither.
func TestFullPagesOnlyOnFull(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		full := variant == config.VariantFull
		a := newAPI(t, variant)
		for _, path := range []string{"/account", "/credit"} {
			resp, _ := a.do(http.MethodGet, path, nil)
			if want := map[bool]int{true: 200, false: 404}[full]; resp.StatusCode != want {
				t.Errorf("%s %s: %d, want %d", variant, path, resp.StatusCode, want)
			}
		}
		for _, path := range []string{"/", "/stats"} {
			body := string(a.get(path, 200, nil))
			for _, link := range []string{`href="/account"`, `href="/credit"`} {
				if strings.Contains(body, link) != full {
					t.Errorf("%s %s: link %s present %v, want %v", variant, path, link, !full, full)
				}
			}
		}
	}
}

// TestAccountPage renders the account page from the session cookie alone
// (no JavaScript): without a session it says that sign-in is outside this
// service; with one it lists the keys (last four characters, never a
// secret), says when a recent sign-in is needed, and offers only the
// organizations where keys may be made. Never cached, no CORS.
func TestAccountPage(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	resp, body := e.browser("").get("/account")
	checkPageHeaders(t, "/account", resp, body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "You are not signed in") ||
		!strings.Contains(string(body), "outside OKF Index") || strings.Contains(string(body), `id="key-create"`) {
		t.Errorf("signed out: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get("Cache-Control") != "no-store" || !strings.Contains(resp.Header.Get("Vary"), "Cookie") ||
		resp.Header.Get("ETag") != "" || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("signed out headers: %v", resp.Header)
	}

	orgs := func(c *identity.SessionClaims) {
		c.Name = "Ana <b>"
		c.Orgs = []identity.Membership{
			{ID: "org-owner", Role: identity.RoleOwner, Products: []string{identitytest.Audience}},
			{ID: "org-member", Role: identity.RoleMember, Products: []string{identitytest.Audience}},
			{ID: "org-elsewhere", Role: identity.RoleAdmin, Products: []string{"other"}},
		}
	}
	b := e.browser(e.session("id-page", orgs)).bootstrap()
	var created account.KeyCreated
	resp, raw := b.post("/api/account/keys/create", `{"name":"laptop <script>","organizationId":null}`)
	if resp.StatusCode != 200 || json.Unmarshal(raw, &created) != nil {
		t.Fatalf("create: %d %s", resp.StatusCode, raw)
	}
	e.secret(created.Secret)
	resp, body = b.get("/account")
	page := string(body)
	checkPageHeaders(t, "/account", resp, body)
	for _, want := range []string{"Signed in as <strong>Ana &lt;b&gt;</strong>", "laptop &lt;script&gt;", "hsk_…" + created.Key.Last4,
		"(1 of 10 live)", `value="org-owner"`, `class="revoke"`} {
		if !strings.Contains(page, want) {
			t.Errorf("signed in: the page lacks %q", want)
		}
	}
	for _, never := range []string{created.Secret, `value="org-member"`, `value="org-elsewhere"`, "reauth-note"} {
		if strings.Contains(page, never) {
			t.Errorf("signed in: the page holds %q", never)
		}
	}
	if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("signed in headers: %v", resp.Header)
	}
	// The list alone, which the script swaps in after a write: the same
	// rows, never the secret, and no page view.
	pages := e.settledUsageToday(usage.Page)
	resp, body = b.get("/account/keys")
	if frag := string(body); resp.StatusCode != 200 || !strings.HasPrefix(frag, `<section aria-labelledby="keys-title" id="keys">`) ||
		!strings.Contains(frag, "hsk_…"+created.Key.Last4) || strings.Contains(frag, created.Secret) ||
		resp.Header.Get("Cache-Control") != "no-store" || strings.Contains(frag, "<html") {
		t.Errorf("key list: %d %v %s", resp.StatusCode, resp.Header, frag)
	}
	if _, body := e.browser("").get("/account/keys"); !strings.Contains(string(body), "You are not signed in") {
		t.Errorf("key list without a session: %s", body)
	}
	if got := e.usageToday(usage.Page); got != pages {
		t.Errorf("the key list counted as a page view (%d, was %d)", got, pages)
	}
	// Revoked, it shows so and offers no revoke.
	if resp, raw := b.post("/api/account/keys/revoke", `{"id":"`+created.Key.ID+`"}`); resp.StatusCode != 200 {
		t.Fatalf("revoke: %d %s", resp.StatusCode, raw)
	}
	_, body = b.get("/account")
	if page := string(body); !strings.Contains(page, "revoked <time") || strings.Contains(page, `class="revoke"`) || !strings.Contains(page, "(0 of 10 live)") {
		t.Errorf("after revoke: %s", page)
	}
	// An old sign-in: the page says a new one is needed before creating.
	old := e.browser(e.session("id-old", func(c *identity.SessionClaims) {
		c.AuthTime.Time = time.Now().Add(-10 * time.Minute)
	}))
	if _, body := old.get("/account"); !strings.Contains(string(body), `id="reauth-note"`) {
		t.Error("an old sign-in: no note that key creation needs a recent one")
	}
	// A session of another product is no session here.
	other := e.browser(e.session("id-x", func(c *identity.SessionClaims) { c.Product = "other" }))
	if _, body := other.get("/account"); !strings.Contains(string(body), "You are not signed in") {
		t.Error("a session of another product was taken")
	}
}

// TestAccountPageAuthUnavailable: when the identity keys cannot be had the
// page says so with a 503, and keeps the session.
func TestAccountPageAuthUnavailable(t *testing.T) {
	t.Parallel()
	idp := identitytest.New(t, config.AlgEdDSA)
	idp.SetDown(true)
	e := newAccountEnvOn(t, storetest.NewStore(t), idp, "")
	resp, body := e.browser(e.session("id-1")).get("/account")
	checkPageHeaders(t, "/account", resp, body)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "auth_unavailable") ||
		resp.Header.Get("Retry-After") == "" || len(resp.Cookies()) != 0 {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
}

// TestCreditPage: the credit page offers the packages of the contract, says
// what to do without JavaScript, has no field that could put the token in
// a URL, and is a cacheable public page.
func TestCreditPage(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	resp, body := a.do(http.MethodGet, "/credit", nil)
	checkPageHeaders(t, "/credit", resp, body)
	page := string(body)
	// This deployment has no receiving address (X402_PAY_TO): it shows
	// no payee and offers nothing to buy, and says why. (The browser test
	// of the credit page, with an address, buys.)
	for _, want := range []string{`id="not-selling"`, "X402_PAY_TO", "<noscript>",
		"X-Credito: cred_...", publicBase + "/api/credito", `src="/assets/full.js?v=`} {
		if !strings.Contains(page, want) {
			t.Errorf("the credit page lacks %q", want)
		}
	}
	for _, bad := range []string{`id="pay-view"`, `id="credit-buy"`, "0x0000000000"} {
		if strings.Contains(page, bad) {
			t.Errorf("the credit page of a deployment that sells nothing has %q", bad)
		}
	}
	// The token field has no name: a form sent without the script carries
	// nothing in the URL.
	if m := regexp.MustCompile(`<input id="credit-token"[^>]*>`).FindString(page); m == "" || strings.Contains(m, "name=") {
		t.Errorf("token field %q", m)
	}
	if resp.Header.Get("ETag") == "" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("headers %v", resp.Header)
	}
	a.get("/assets/full.js", 200, nil)
}
