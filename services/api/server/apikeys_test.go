package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

const keysCreate, keysRevoke = "/api/account/keys/create", "/api/account/keys/revoke"

// createKey creates a key as b and returns the answer.
func (b *browser) createKey(body string) account.KeyCreated {
	b.e.t.Helper()
	resp, rb := b.post(keysCreate, body)
	var k account.KeyCreated
	if resp.StatusCode != 200 || json.Unmarshal(rb, &k) != nil {
		b.e.t.Fatalf("create %s: %d %s", body, resp.StatusCode, rb)
	}
	b.e.secret(k.Secret)
	return k
}

func (b *browser) keys() []account.KeyRecord {
	b.e.t.Helper()
	resp, body := b.get("/api/account/keys")
	var l struct{ Keys []account.KeyRecord }
	if resp.StatusCode != 200 || json.Unmarshal(body, &l) != nil {
		b.e.t.Fatalf("keys: %d %s", resp.StatusCode, body)
	}
	return l.Keys
}

func org(id, role string, products ...string) func(*identity.SessionClaims) {
	return func(c *identity.SessionClaims) {
		c.Orgs = append(c.Orgs, identity.Membership{ID: id, Role: role, Products: products})
	}
}

var mfa = func(c *identity.SessionClaims) { c.MFA, c.Methods = identity.MFAVerified, []string{"pwd", "otp"} }

// Every rule of key creation (contract section 5) and of revocation.
func TestKeyRules(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	b := e.browser(e.session("id-1", org("org-own", "owner", "okf"), org("org-adm", "admin", "okf", "lens"),
		org("org-mem", "member", "okf"), org("org-off", "owner", "lens"))).bootstrap()
	k := b.createKey(`{"name":"laptop","organizationId":null}`)
	if !regexp.MustCompile(`^hsk_[A-Za-z0-9_-]{43}$`).MatchString(k.Secret) || k.Key.Last4 != k.Secret[len(k.Secret)-4:] ||
		k.Key.OrganizationID != nil || k.Key.Name != "laptop" {
		t.Fatalf("created %+v", k)
	}
	_, listed := b.get("/api/account/keys")
	if strings.Contains(string(listed), k.Secret) || !strings.Contains(string(listed), k.Key.ID) {
		t.Errorf("the list shows the secret, or not the key: %s", listed)
	}
	// Rule 2 needs a second factor; without one an owner is refused.
	for name, c := range map[string]struct {
		body, err string
		status    int
	}{
		"name missing":        {`{"organizationId":null}`, apierror.InvalidKeyName, 400},
		"name empty":          {`{"name":"","organizationId":null}`, apierror.InvalidKeyName, 400},
		"name blank":          {`{"name":"   ","organizationId":null}`, apierror.InvalidKeyName, 400},
		"name 61 characters":  {fmt.Sprintf(`{"name":"%s","organizationId":null}`, strings.Repeat("é", 61)), apierror.InvalidKeyName, 400},
		"name not a string":   {`{"name":5,"organizationId":null}`, apierror.InvalidKeyName, 400},
		"name with a newline": {`{"name":"a\nb","organizationId":null}`, apierror.InvalidKeyName, 400},
		"org missing":         {`{"name":"x"}`, apierror.InvalidOrganization, 400},
		"org empty":           {`{"name":"x","organizationId":""}`, apierror.InvalidOrganization, 400},
		"org a number":        {`{"name":"x","organizationId":7}`, apierror.InvalidOrganization, 400},
		"org not mine":        {`{"name":"x","organizationId":"org-else"}`, apierror.InvalidOrganization, 400},
		"org member":          {`{"name":"x","organizationId":"org-mem"}`, apierror.OrganizationForbidden, 403},
		"org product off":     {`{"name":"x","organizationId":"org-off"}`, apierror.OrganizationForbidden, 403},
		"org owner, no MFA":   {`{"name":"x","organizationId":"org-own"}`, apierror.OrganizationMFARequired, 403},
		"not an object":       {`[]`, apierror.InvalidRequest, 400},
	} {
		resp, rb := b.post(keysCreate, c.body)
		wantError(t, name, resp, rb, c.status, c.err)
	}
	if n := len(b.keys()); n != 1 {
		t.Errorf("%d keys after refusals", n)
	}
	// With a second factor: owner and admin may; a member still may not.
	m := e.browser(e.session("id-1", mfa, org("org-own", "owner", "okf"), org("org-adm", "admin", "okf"), org("org-mem", "member", "okf"))).bootstrap()
	for _, o := range []string{"org-own", "org-adm"} {
		if k := m.createKey(`{"name":"team","organizationId":"` + o + `"}`); k.Key.OrganizationID == nil || *k.Key.OrganizationID != o {
			t.Errorf("org key %+v", k.Key)
		}
	}
	resp, rb := m.post(keysCreate, `{"name":"x","organizationId":"org-mem"}`)
	wantError(t, "member with MFA", resp, rb, 403, apierror.OrganizationForbidden)
	// Rule 1: a sign-in older than 5 minutes.
	old := e.browser(e.session("id-1", func(c *identity.SessionClaims) {
		c.AuthTime = jwt.NewNumericDate(time.Now().Add(-6 * time.Minute))
	})).bootstrap()
	resp, rb = old.post(keysCreate, `{"name":"late","organizationId":null}`)
	wantError(t, "old sign-in", resp, rb, 401, apierror.ReauthRequired)
	if len(old.keys()) != 3 {
		t.Errorf("the old session reads the keys: %d", len(old.keys()))
	}

	// Revoke: idempotent; another account's key and bad ids refused.
	for range 2 {
		if resp, rb := b.post(keysRevoke, `{"id":"`+k.Key.ID+`"}`); resp.StatusCode != 200 || string(rb) != "{\"ok\":true}\n" {
			t.Fatalf("revoke: %d %s", resp.StatusCode, rb)
		}
	}
	for _, kr := range b.keys() {
		if kr.ID == k.Key.ID && (kr.Active || kr.RevokedAt == nil) {
			t.Errorf("revoked key listed %+v", kr)
		}
	}
	stranger := e.browser(e.session("id-2")).bootstrap()
	resp, rb = stranger.post(keysRevoke, `{"id":"`+k.Key.ID+`"}`)
	wantError(t, "another's key", resp, rb, 404, apierror.KeyNotFound)
	resp, rb = stranger.post(keysRevoke, `{"id":"00000000-0000-4000-8000-000000000000"}`)
	wantError(t, "no such key", resp, rb, 404, apierror.KeyNotFound)
	for _, body := range []string{`{}`, `{"id":5}`, `{"id":"nope"}`} {
		resp, rb = stranger.post(keysRevoke, body)
		wantError(t, body, resp, rb, 400, apierror.InvalidKeyID)
	}
}

// Fifty concurrent creates of one account give exactly 10 keys.
func TestKeyLimitUnderConcurrentCreates(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	b := e.browser(e.session("id-1")).bootstrap()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 50 {
		wg.Go(func() {
			resp, rb := b.post(keysCreate, fmt.Sprintf(`{"name":"k%d","organizationId":null}`, i))
			var k account.KeyCreated
			json.Unmarshal(rb, &k)
			e.secret(k.Secret)
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
			if resp.StatusCode == 409 && !strings.Contains(string(rb), apierror.KeyLimitReached) {
				t.Errorf("409 %s", rb)
			}
		})
	}
	wg.Wait()
	if statuses[200] != store.LiveKeyLimit || statuses[409] != 50-store.LiveKeyLimit {
		t.Fatalf("statuses %v", statuses)
	}
	if n := len(b.keys()); n != store.LiveKeyLimit {
		t.Errorf("%d keys", n)
	}
}

// A key acts as its account on the public routes; a revoked, unknown,
// malformed or foreign key is a 401, never an anonymous request.
func TestAPIKeyAuthentication(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	b := e.browser(e.session("id-1")).bootstrap()
	k := b.createKey(`{"name":"agent","organizationId":null}`)
	for name, h := range map[string]http.Header{
		"X-Api-Key": {"X-Api-Key": {k.Secret}},
		"Bearer":    {"Authorization": {"Bearer " + k.Secret}},
	} {
		if resp, body := e.send("GET", "/api/bundles", h, nil); resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
	if kr := b.keys()[0]; kr.LastUsedAt == nil || !kr.Active {
		t.Errorf("last use not recorded: %+v", kr)
	}
	// Usage is counted under the key, which names the account.
	deadline := time.Now().Add(10 * time.Second)
	metric := "okf_key_" + strings.ReplaceAll(k.Key.ID, "-", "")
	for {
		rows, _ := e.store.Usage(t.Context(), time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
		n := int64(0)
		for _, r := range rows {
			if r.Metric == metric {
				n += r.N
			}
		}
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("key usage %d, want 2", n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	unknown := "hsk_" + base64.RawURLEncoding.EncodeToString(make([]byte, 32))
	for name, h := range map[string]http.Header{
		"unknown":   {"X-Api-Key": {unknown}},
		"malformed": {"X-Api-Key": {"hsk_short"}},
		"empty":     {"X-Api-Key": {""}},
	} {
		resp, body := e.send("GET", "/api/stats", h, nil)
		wantError(t, name, resp, body, 401, apierror.InvalidAPIKey)
	}
	// Revocation takes effect on the next request.
	b.post(keysRevoke, `{"id":"`+k.Key.ID+`"}`)
	resp, body := e.send("GET", "/api/bundles", http.Header{"X-Api-Key": {k.Secret}}, nil)
	wantError(t, "revoked", resp, body, 401, apierror.InvalidAPIKey)
	// A key of another product of the house (same database) is refused here.
	lens := newAccountEnvOn(t, e.store, e.idp, "lens")
	lk := lens.browser(lens.session("id-1", func(c *identity.SessionClaims) {
		c.Audience, c.Product = jwt.ClaimStrings{"lens"}, "lens"
	})).bootstrap().createKey(`{"name":"lens","organizationId":null}`)
	e.secret(lk.Secret)
	resp, body = e.send("GET", "/api/bundles", http.Header{"X-Api-Key": {lk.Secret}}, nil)
	wantError(t, "another product's key", resp, body, 401, apierror.InvalidAPIKey)
	// Another bearer token, on a route that takes none, is refused, never
	// read as an anonymous request (the key-header matrix: keyauth_test.go).
	resp, body = e.send("GET", "/api/bundles", http.Header{"Authorization": {"Bearer something-else"}}, nil)
	wantError(t, "a non-key bearer", resp, body, 401, apierror.InvalidAPIKey)
}

// The base variant has no accounts: every account route is a 404, and a
// key header is not read.
func TestAccountRoutesAbsentOnBase(t *testing.T) {
	t.Parallel()
	a := newAPI(t, "base")
	for _, p := range []string{"/api/auth/bootstrap", "/api/me", "/api/account/profile", "/api/account/avatar", "/api/account/keys"} {
		a.getError(p, 404, apierror.NotFound)
	}
	for _, p := range []string{"/api/auth/logout", keysCreate, keysRevoke, account.IdentityEventsPath} {
		if resp, _ := a.do("POST", p, nil); resp.StatusCode != 404 {
			t.Errorf("POST %s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := a.do("GET", "/api/bundles", http.Header{"X-Api-Key": {"hsk_whatever"}}); resp.StatusCode != 200 {
		t.Errorf("base read a key: %d", resp.StatusCode)
	}
}
