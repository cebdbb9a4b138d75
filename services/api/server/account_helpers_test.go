package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/account"
)

// accountEnv is a full API that trusts a local identity stand-in. Every
// secret a test handles (sessions, CSRF values, API keys, events) is
// remembered, and at the end the server's whole log must hold none of them.
type accountEnv struct {
	*testAPI
	idp *identitytest.Server

	mu      sync.Mutex
	secrets []string
}

// newAccountEnv starts a full API on a fresh database with the stand-in's keys.
func newAccountEnv(t *testing.T) *accountEnv {
	t.Helper()
	return newAccountEnvOn(t, storetest.NewStore(t), identitytest.New(t, config.AlgEdDSA), "")
}

// newAccountEnvOn starts a full API on st trusting idp; audience "" is the
// stand-in's product.
func newAccountEnvOn(t *testing.T, st *store.Store, idp *identitytest.Server, audience string) *accountEnv {
	t.Helper()
	env := idp.Env()
	env["PUBLIC_BASE_URL"] = publicBase + "/"
	env["VARIANT"] = config.VariantFull
	if audience != "" {
		env["AUTH_AUDIENCE"] = audience
	}
	e := &accountEnv{testAPI: newAPIWith(t, st, env), idp: idp}
	t.Cleanup(func() {
		logs := e.logs.String()
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, s := range e.secrets {
			if s != "" && strings.Contains(logs, s) {
				t.Errorf("the log holds a secret (%.12s...)", s)
			}
		}
	})
	return e
}

// secret remembers s as a secret the log must never hold, and returns it.
func (e *accountEnv) secret(s string) string {
	e.mu.Lock()
	e.secrets = append(e.secrets, s)
	e.mu.Unlock()
	return s
}

// session mints a session of identity with the stand-in.
func (e *accountEnv) session(identityID string, edits ...func(*identity.SessionClaims)) string {
	return e.secret(e.idp.Session(identityID, edits...))
}

// send sends one request with a body through the contract client.
func (e *accountEnv) send(method, path string, header http.Header, body []byte) (*http.Response, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, b
}

// browser is a browser of the service's pages: its session cookie (a
// token, or none) and the CSRF cookie and token bootstrap gave it.
type browser struct {
	e          *accountEnv
	session    string
	csrfCookie string
	csrf       string
}

func (e *accountEnv) browser(session string) *browser { return &browser{e: e, session: session} }

// cookies is the Cookie header the browser sends.
func (b *browser) cookies() string {
	var cs []string
	if b.session != "" {
		cs = append(cs, account.SessionCookie+"="+b.session)
	}
	if b.csrfCookie != "" {
		cs = append(cs, account.CSRFCookie+"="+b.csrfCookie)
	}
	return strings.Join(cs, "; ")
}

// bootstrap calls GET /api/auth/bootstrap and keeps the cookie and token.
func (b *browser) bootstrap() *browser {
	b.e.t.Helper()
	resp, body := b.get("/api/auth/bootstrap")
	if resp.StatusCode != 200 {
		b.e.t.Fatalf("bootstrap: %d %s", resp.StatusCode, body)
	}
	var bs account.Bootstrap
	if err := json.Unmarshal(body, &bs); err != nil {
		b.e.t.Fatal(err)
	}
	b.csrf = b.e.secret(bs.CSRF)
	for _, c := range resp.Cookies() {
		if c.Name == account.CSRFCookie {
			b.csrfCookie = b.e.secret(c.Value)
		}
	}
	return b
}

// get sends a GET with the browser's cookies.
func (b *browser) get(path string) (*http.Response, []byte) {
	h := http.Header{}
	if c := b.cookies(); c != "" {
		h.Set("Cookie", c)
	}
	return b.e.send(http.MethodGet, path, h, nil)
}

// post sends a write as the service's own page would: same-origin, with the
// Origin and CSRF token; edit changes the headers first.
func (b *browser) post(path, body string, edit ...func(http.Header)) (*http.Response, []byte) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Origin", publicBase)
	h.Set("Sec-Fetch-Site", "same-origin")
	h.Set(account.CSRFHeader, b.csrf)
	if c := b.cookies(); c != "" {
		h.Set("Cookie", c)
	}
	for _, e := range edit {
		e(h)
	}
	return b.e.send(http.MethodPost, path, h, []byte(body))
}

// wantError checks an error answer's status and name.
func wantError(t *testing.T, what string, resp *http.Response, body []byte, status int, name string) {
	t.Helper()
	var e wire.ErrorBody
	if resp.StatusCode != status || json.Unmarshal(body, &e) != nil || e.Error != name || e.Message == "" {
		t.Errorf("%s: %d %s, want %d %s", what, resp.StatusCode, body, status, name)
	}
}
