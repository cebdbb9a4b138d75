package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// newPayAccountEnv is a full API that takes payments (payRig) and trusts
// an identity stand-in (accountEnv): accounts with keys that pay.
func newPayAccountEnv(t *testing.T) (*payRig, *accountEnv) {
	t.Helper()
	idp := identitytest.New(t, config.AlgEdDSA)
	r := newPayRig(t, idp.Env(), Options{})
	return r, &accountEnv{testAPI: r.testAPI, idp: idp}
}

// TestKeyHeaderMatrix: every Authorization and X-Api-Key a request
// carries is exactly one valid credential the route takes, or a refusal
// with its name; never an anonymous request.
func TestKeyHeaderMatrix(t *testing.T) {
	t.Parallel()
	_, e := newPayAccountEnv(t)
	b := e.browser(e.session("id-1")).bootstrap()
	good := b.createKey(`{"name":"one","organizationId":null}`).Secret
	other := b.createKey(`{"name":"two","organizationId":null}`).Secret
	revokedKey := b.createKey(`{"name":"gone","organizationId":null}`)
	if resp, body := b.post(keysRevoke, `{"id":"`+revokedKey.Key.ID+`"}`); resp.StatusCode != 200 {
		t.Fatalf("revoke: %d %s", resp.StatusCode, body)
	}
	revoked := revokedKey.Secret
	unknown := "hsk_" + base64.RawURLEncoding.EncodeToString(make([]byte, 32))
	credShaped := "cred_" + strings.Repeat("A", 43)
	const read = "GET /api/bundles"
	for _, tc := range []struct {
		name, route string
		header      http.Header
		status      int
		error       string // "" for a success
	}{
		{"X-Api-Key", read, http.Header{"X-Api-Key": {good}}, 200, ""},
		{"Bearer", read, http.Header{"Authorization": {"Bearer " + good}}, 200, ""},
		{"bearer in lowercase", read, http.Header{"Authorization": {"bearer " + good}}, 200, ""},
		{"the same key twice, one of each header", read, http.Header{"X-Api-Key": {good}, "Authorization": {"Bearer " + good}}, 200, ""},
		{"no credential", read, http.Header{}, 200, ""},
		{"Bearer HSK_", read, http.Header{"Authorization": {"Bearer HSK_" + good[4:]}}, 401, apierror.InvalidAPIKey},
		{"Token hsk_", read, http.Header{"Authorization": {"Token " + good}}, 401, apierror.InvalidAPIKey},
		{"bare hsk_", read, http.Header{"Authorization": {good}}, 401, apierror.InvalidAPIKey},
		{"Basic", read, http.Header{"Authorization": {"Basic dXNlcjpwYXNz"}}, 401, apierror.InvalidAPIKey},
		{"another bearer", read, http.Header{"Authorization": {"Bearer something-else"}}, 401, apierror.InvalidAPIKey},
		{"empty X-Api-Key", read, http.Header{"X-Api-Key": {""}}, 401, apierror.InvalidAPIKey},
		{"unknown key", read, http.Header{"X-Api-Key": {unknown}}, 401, apierror.InvalidAPIKey},
		{"malformed key", read, http.Header{"X-Api-Key": {"hsk_short"}}, 401, apierror.InvalidAPIKey},
		{"revoked key", read, http.Header{"X-Api-Key": {revoked}}, 401, apierror.InvalidAPIKey},
		{"revoked Bearer beside a good X-Api-Key", read, http.Header{"X-Api-Key": {good}, "Authorization": {"Bearer " + revoked}}, 401, apierror.InvalidAPIKey},
		{"revoked X-Api-Key beside a good Bearer", read, http.Header{"X-Api-Key": {revoked}, "Authorization": {"Bearer " + good}}, 401, apierror.InvalidAPIKey},
		{"two X-Api-Key", read, http.Header{"X-Api-Key": {good, good}}, 400, apierror.InvalidRequest},
		{"two X-Api-Key, one revoked", read, http.Header{"X-Api-Key": {good, revoked}}, 400, apierror.InvalidRequest},
		{"two Authorization", read, http.Header{"Authorization": {"Bearer " + good, "Bearer " + good}}, 400, apierror.InvalidRequest},
		{"two different keys", read, http.Header{"X-Api-Key": {good}, "Authorization": {"Bearer " + other}}, 400, apierror.InvalidRequest},
		{"a credit token where none is taken", read, http.Header{"Authorization": {"Bearer " + credShaped}}, 401, apierror.InvalidCredit},
		{"a revoked key on the metrics", "GET /api/metrics", http.Header{"Authorization": {"Bearer " + revoked}}, 401, apierror.InvalidAPIKey},
		{"a good key on the metrics", "GET /api/metrics", http.Header{"X-Api-Key": {good}}, 200, ""},
		{"Bearer CRED_ on the contact", "POST /api/contact", http.Header{"Authorization": {"Bearer CRED_" + credShaped[5:]}}, 401, apierror.InvalidCredit},
		{"Basic on the contact", "POST /api/contact", http.Header{"Authorization": {"Basic dXNlcjpwYXNz"}}, 401, apierror.InvalidAPIKey},
		{"an unknown credit token on the contact pays nothing", "POST /api/contact", http.Header{"Authorization": {"Bearer " + credShaped}}, 402, apierror.PaymentInvalid},
		{"revoked key beside a credit token on the contact", "POST /api/contact", http.Header{"X-Api-Key": {revoked}, "X-Credito": {credShaped}}, 401, apierror.InvalidAPIKey},
		{"two X-Credito", "GET /api/credito", http.Header{"X-Credito": {credShaped, credShaped}}, 400, apierror.InvalidRequest},
	} {
		method, path, _ := strings.Cut(tc.route, " ")
		var body []byte
		if method == http.MethodPost {
			body = contactBody("")
			tc.header.Set("Content-Type", "application/json")
		}
		resp, got := e.send(method, path, tc.header, body)
		if tc.error == "" {
			if resp.StatusCode != tc.status {
				t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, got, tc.status)
			}
			continue
		}
		var eb struct{ Error string }
		if resp.StatusCode != tc.status || json.Unmarshal(got, &eb) != nil || eb.Error != tc.error {
			t.Errorf("%s: %d %s, want %d %s", tc.name, resp.StatusCode, got, tc.status, tc.error)
		}
	}
}

// TestContactRulesPerAccount: the free first message is the account's,
// whichever of its keys sends it and whatever keys it creates or revokes;
// a paid first message does not spend it; a keyless client has its own;
// the backoff's 429 offers the payment, which pays at once.
func TestContactRulesPerAccount(t *testing.T) {
	t.Parallel()
	r, e := newPayAccountEnv(t)
	post := func(h http.Header) (*http.Response, []byte) {
		h.Set("Content-Type", "application/json")
		return e.send(http.MethodPost, "/api/contact", h, contactBody(""))
	}
	wantPath := func(what string, resp *http.Response, body []byte, path string) {
		t.Helper()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"path":"`+path+`"`) {
			t.Fatalf("%s: %d %s, want path %s", what, resp.StatusCode, body, path)
		}
	}
	one := e.browser(e.session("id-1")).bootstrap()
	keyA := one.createKey(`{"name":"a","organizationId":null}`)
	keyB := one.createKey(`{"name":"b","organizationId":null}`)
	resp, body := post(http.Header{"X-Api-Key": {keyA.Secret}})
	wantPath("first message, key A", resp, body, "agent_free")
	resp, body = post(http.Header{"Authorization": {"Bearer " + keyB.Secret}})
	if resp.StatusCode != 402 {
		t.Fatalf("key B of the same account: %d %s, want 402", resp.StatusCode, body)
	}
	// Within the backoff now: 429, offering the payment the 402 offered.
	one.post(keysRevoke, `{"id":"`+keyA.Key.ID+`"}`)
	keyC := one.createKey(`{"name":"c","organizationId":null}`)
	resp, body = post(http.Header{"X-Api-Key": {keyC.Secret}})
	var offered struct {
		Error   string
		Accepts []struct{ Network, MaxAmountRequired, PayTo, Resource string }
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || resp.Header.Get(x402.HeaderRequiredV2) == "" ||
		json.Unmarshal(body, &offered) != nil || offered.Error != apierror.ContactBackoff || len(offered.Accepts) != 1 ||
		offered.Accepts[0].MaxAmountRequired != "100000" || offered.Accepts[0].PayTo != testPayTo {
		t.Fatalf("a new key of the same account: %d %v %s, want 429 with the offer", resp.StatusCode, resp.Header, body)
	}
	a := offered.Accepts[0]
	req := x402.Requirement{Network: x402.Networks[a.Network], AmountMicro: 100_000, PayTo: a.PayTo, Resource: a.Resource}
	resp, body = post(http.Header{"X-Api-Key": {keyC.Secret}, "X-PAYMENT": {r.payer.Pay(req, 1)}})
	wantPath("paid from the 429's offer", resp, body, "agent_x402")

	// Another account: its first message paid, then its free one.
	two := e.browser(e.session("id-2")).bootstrap()
	keyD := two.createKey(`{"name":"d","organizationId":null}`)
	resp, body = post(http.Header{"X-Api-Key": {keyD.Secret}, "X-PAYMENT": {r.payer.Pay(req, 2)}})
	wantPath("paid first message", resp, body, "agent_x402")
	resp, body = post(http.Header{"X-Api-Key": {keyD.Secret}})
	wantPath("the free one after a paid one", resp, body, "agent_free")

	// A keyless client has its own free message, once.
	resp, body = post(http.Header{})
	wantPath("keyless", resp, body, "agent_free")
	if resp, body = post(http.Header{}); resp.StatusCode != 402 {
		t.Fatalf("keyless again: %d %s", resp.StatusCode, body)
	}
	var agents string
	if err := r.store.Pool().QueryRow(t.Context(), `SELECT string_agg(agent || '=' || free_used::text, ',' ORDER BY agent) FROM contact_agents`).Scan(&agents); err != nil ||
		agents != "account:id-1=true,account:id-2=true,ip:127.0.0.1/32=true" {
		t.Fatalf("agents %q (%v)", agents, err)
	}
}
