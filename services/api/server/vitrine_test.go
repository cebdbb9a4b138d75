package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	vitrineapi "github.com/okfindex/okf-index/services/api/server/vitrine"
)

// vitrineEnv is a full API with an operator token, a controlled clock and
// the house's identity stand-in (for a real API key and session), plus the
// collector that publishes into its database.
type vitrineEnv struct {
	*accountEnv
	clock     *clocktest.Clock
	collector *vitrine.Publisher
}

func newVitrineEnv(t *testing.T, edit func(env map[string]string)) *vitrineEnv {
	t.Helper()
	st := storetest.NewStore(t)
	idp := identitytest.New(t, config.AlgEdDSA)
	env := idp.Env()
	env["PUBLIC_BASE_URL"] = publicBase + "/"
	env["VARIANT"] = config.VariantFull
	env["METRICS_TOKEN"] = testMetricsToken
	if edit != nil {
		edit(env)
	}
	clock := clocktest.New(time.Now().UTC().Truncate(time.Second)) // publications are stamped to the second
	a := newAPIWithOptions(t, st, env, Options{Now: clock.Now})
	return &vitrineEnv{
		accountEnv: &accountEnv{testAPI: a, idp: idp},
		clock:      clock,
		collector: &vitrine.Publisher{Store: st, Product: wire.ProductID, Name: AppName, BaseURL: publicBase,
			Build: "test-build", Full: true, Now: clock.Now},
	}
}

func (e *vitrineEnv) publish() {
	e.t.Helper()
	if _, err := e.collector.Publish(e.t.Context()); err != nil {
		e.t.Fatal(err)
	}
}

// topKeys are the top-level keys of a JSON object, in order.
func topKeys(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", body)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestVitrine: before the first publication the five keys; after it the
// projection; a 15-minute cache with a strong ETag and 304 on a match; stale
// past 26 hours; no method that submits anything.
func TestVitrine(t *testing.T) {
	t.Parallel()
	e := newVitrineEnv(t, nil)
	resp, body := e.do("GET", "/api/vitrine", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if got := string(body); got != `{"v":1,"produto":"okf","publicado":false,"atualizado_em":null,"stale":false}`+"\n" {
		t.Errorf("before the first publication: %s", got)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=900" {
		t.Errorf("Cache-Control %q", cc)
	}
	first := resp.Header.Get("ETag")
	if !strings.HasPrefix(first, `"`) || len(first) < 10 {
		t.Errorf("ETag %q, want a strong validator", first)
	}

	e.publish()
	resp, body = e.do("GET", "/api/vitrine", nil)
	tag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || tag == first {
		t.Fatalf("after publication: %d, ETag %q (was %q)", resp.StatusCode, tag, first)
	}
	var p vitrine.Projection
	if err := json.Unmarshal(body, &p); err != nil || !p.Published || p.Stale || p.V != 1 || len(p.Days) != 31 {
		t.Fatalf("projection %s (%v)", body, err)
	}
	if keys := topKeys(t, body); len(keys) != 21 || !slices.Contains(keys, "confiabilidade") {
		t.Errorf("keys %v", keys)
	}
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		resp, body := e.do("GET", "/api/vitrine", http.Header{"If-None-Match": {inm}})
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != tag {
			t.Errorf("If-None-Match %s: %d %q, ETag %q", inm, resp.StatusCode, body, resp.Header.Get("ETag"))
		}
	}
	if resp, _ := e.do("GET", "/api/vitrine", http.Header{"If-None-Match": {first}}); resp.StatusCode != 200 {
		t.Errorf("an old ETag: %d, want 200", resp.StatusCode)
	}
	if resp, body := e.do("HEAD", "/api/vitrine", nil); resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("ETag") != tag {
		t.Errorf("HEAD: %d %q %q", resp.StatusCode, body, resp.Header.Get("ETag"))
	}

	// 26 hours later with no new publication: stale, and a new ETag.
	e.clock.Advance(26 * time.Hour)
	if resp, body := e.do("GET", "/api/vitrine", nil); resp.Header.Get("ETag") != tag || strings.Contains(string(body), `"stale":true`) {
		t.Errorf("at 26 h exactly: stale too early: %s", body)
	}
	e.clock.Advance(time.Second)
	resp, body = e.do("GET", "/api/vitrine", nil)
	if !strings.Contains(string(body), `"stale":true`) || resp.Header.Get("ETag") == tag {
		t.Errorf("past 26 h: %s, ETag %q", body, resp.Header.Get("ETag"))
	}

	// Nothing can be submitted.
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		resp, body := e.send(m, "/api/vitrine", http.Header{"Content-Type": {"application/json"}}, []byte(`{"v":1,"uso":{"d7":1000000}}`))
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d %s, want 405", m, resp.StatusCode, body)
		}
	}
	if resp, body := e.do("GET", "/api/vitrine", nil); resp.StatusCode != 200 || strings.Contains(string(body), "1000000") {
		t.Errorf("after the refused writes: %s", body)
	}
}

// TestVitrineOperatorRoutes: every refusal of contract section 7, then the
// shapes of 4.7 before and after the collector's first document.
func TestVitrineOperatorRoutes(t *testing.T) {
	t.Parallel()
	paths := []string{"/api/vitrine/operador", "/api/vitrine/painel", "/api/vitrine/cursores"}
	operator := http.Header{"Authorization": {"Bearer " + testMetricsToken}}

	e := newVitrineEnv(t, nil)
	b := e.browser(e.session("id-1")).bootstrap()
	key := b.createKey(`{"name":"agent","organizationId":null}`)
	for name, h := range map[string]http.Header{
		"no token":             nil,
		"wrong token":          {"Authorization": {"Bearer not-the-token"}},
		"empty bearer":         {"Authorization": {"Bearer "}},
		"basic scheme":         {"Authorization": {"Basic b3A6" + testMetricsToken}},
		"token without scheme": {"Authorization": {testMetricsToken}},
		"an API key":           {"Authorization": {"Bearer " + key.Secret}},
		"an API key header":    {"X-Api-Key": {key.Secret}},
		"a credit token":       {"Authorization": {"Bearer cred_" + strings.Repeat("A", 43)}},
		"a credit header":      {"X-Credito": {"cred_" + strings.Repeat("A", 43)}},
		"a session cookie":     {"Cookie": {b.cookies()}},
	} {
		for _, p := range paths {
			resp, body := e.send("GET", p, h, nil)
			wantError(t, name+" "+p, resp, body, http.StatusUnauthorized, apierror.InvalidToken)
			if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s %s: Cache-Control %q", name, p, cc)
			}
		}
	}

	// Before the collector's first document: 200 with the nullable fields
	// null, {apps: []} and {}.
	for p, want := range map[string]string{
		paths[0]: `{"produto":"okf","atualizado_em":null,"operador":null}`,
		paths[1]: `{"apps":[]}`,
		paths[2]: `{}`,
	} {
		resp, body := e.send("GET", p, operator, nil)
		if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != want || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s before publication: %d %s, want %s", p, resp.StatusCode, body, want)
		}
	}

	e.publish()
	var op vitrineapi.OperatorDocument
	resp, body := e.send("GET", paths[0], operator, nil)
	if err := json.Unmarshal(body, &op); err != nil || resp.StatusCode != 200 || op.Operator == nil || op.UpdatedAt == nil ||
		*op.UpdatedAt != *op.Operator.UpdatedAt || op.Product != "okf" {
		t.Errorf("operador: %d %s", resp.StatusCode, body)
	}
	var panel vitrine.Panel
	_, body = e.send("GET", paths[1], operator, nil)
	if err := json.Unmarshal(body, &panel); err != nil || len(panel.Apps) != 1 || panel.Apps[0].ID != "okf" || panel.Updated == "" {
		t.Errorf("painel: %s", body)
	}
	_, body = e.send("GET", paths[2], operator, nil)
	if keys := topKeys(t, body); !slices.Equal(keys, []string{"okf"}) {
		t.Errorf("cursores: %s", body)
	}

	// A service without an operator token: 503 token_not_configured,
	// whether a token is sent or not (contract section 7).
	noToken := newVitrineEnv(t, func(env map[string]string) { delete(env, "METRICS_TOKEN") })
	for _, p := range paths {
		resp, body := noToken.send("GET", p, operator, nil)
		wantError(t, "unconfigured "+p, resp, body, http.StatusServiceUnavailable, apierror.TokenNotConfigured)
		resp, body = noToken.send("GET", p, nil, nil)
		wantError(t, "unconfigured, no token "+p, resp, body, http.StatusServiceUnavailable, apierror.TokenNotConfigured)
	}
	// No collector: 503 collector_not_configured with the right token, 401
	// without.
	off := newVitrineEnv(t, func(env map[string]string) { env["VITRINE_COLLECTOR"] = "off" })
	for _, p := range paths {
		resp, body := off.send("GET", p, operator, nil)
		wantError(t, "collector off "+p, resp, body, http.StatusServiceUnavailable, apierror.CollectorNotConfigured)
		resp, body = off.send("GET", p, http.Header{"Authorization": {"Bearer wrong"}}, nil)
		wantError(t, "collector off, wrong token "+p, resp, body, http.StatusUnauthorized, apierror.InvalidToken)
	}
	if resp, _ := off.do("GET", "/api/vitrine", nil); resp.StatusCode != 200 {
		t.Errorf("the public projection with the collector off: %d", resp.StatusCode)
	}
}

// TestVitrineAbsentOnBase: the four routes are full-only.
func TestVitrineAbsentOnBase(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, p := range []string{"/api/vitrine", "/api/vitrine/operador", "/api/vitrine/painel", "/api/vitrine/cursores"} {
		a.getError(p, 404, apierror.NotFound)
	}
}

// TestVitrineExcerpt: the excerpt GET /api/partners carries.
func TestVitrineExcerpt(t *testing.T) {
	t.Parallel()
	e := newVitrineEnv(t, nil)
	ex, err := e.server.vitrine.Excerpt(t.Context())
	if err != nil || ex.Published || ex.UpdatedAt != nil || ex.Link != publicBase+"/api/vitrine" || ex.Usage30d != nil {
		t.Fatalf("before publication: %+v %v", ex, err)
	}
	if err := e.store.AddUsage(t.Context(), "00000000-0000-4000-8000-000000000001", []store.UsageDelta{
		{Day: e.clock.Now(), Metric: "okf_api", N: 1234}}); err != nil {
		t.Fatal(err)
	}
	e.publish()
	ex, err = e.server.vitrine.Excerpt(t.Context())
	if err != nil || !ex.Published || ex.UpdatedAt == nil || ex.Stale || ex.Usage30d == nil || *ex.Usage30d != 1200 || ex.Bundles == nil {
		t.Fatalf("after publication: %+v %v", ex, err)
	}
	// GET /api/partners carries the excerpt once published.
	var partners struct {
		Stats vitrineapi.Excerpt `json:"stats"`
	}
	e.get("/api/partners", 200, &partners)
	if got := partners.Stats; !got.Published || got.Usage30d == nil || *got.Usage30d != 1200 || got.Link != publicBase+"/api/vitrine" {
		t.Errorf("partners stats after publication: %+v", got)
	}
}

// TestVitrineCountsVisitorsAndRequests: browser requests to a page and
// POST /api/visit from one client count one visitor; programs count none;
// the counted surfaces' requests count toward reliability, whatever their
// status, and the operations routes and test traffic do not.
func TestVitrineCountsVisitorsAndRequests(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	firefox := http.Header{"User-Agent": {"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"}}
	chrome := http.Header{"User-Agent": {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"}}
	for _, h := range []http.Header{firefox, firefox, chrome} {
		if resp, _ := a.do("GET", "/", h); resp.StatusCode != 200 {
			t.Fatalf("page: %d", resp.StatusCode)
		}
	}
	a.send("POST", "/api/visit", nil, map[string]string{"User-Agent": firefox.Get("User-Agent")})
	a.do("GET", "/", http.Header{"User-Agent": {"curl/8.5.0"}})                                  // a program: no visitor
	a.do("GET", "/", http.Header{"User-Agent": {firefox.Get("User-Agent")}, smokeHeader: {"1"}}) // test traffic
	a.do("GET", "/api/bundles/no-such-id", nil)                                                  // a 404 of a counted surface
	a.do("GET", "/api/health", nil)                                                              // an operations route
	// The background flush may hold a batch while this one runs: wait for
	// the counts rather than for one flush.
	var visitors int64
	got := map[string]int64{}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if err := a.server.usage.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		days, err := a.store.MeasuredDays(t.Context(), now, now)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := a.store.Usage(t.Context(), now, now)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got[r.Metric] = r.N
		}
		if len(days) == 1 {
			visitors = days[0].Visitors
		}
		// Four page views and the 404: five requests, none a 5xx; one
		// client with two browser families: two visitors.
		if visitors == 2 && got["okf_requests"] == 5 && got["okf_page"] == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("visitors %d, counters %v: want 2 visitors, 5 requests, 4 pages", visitors, got)
		}
	}
	if got["okf_requests_5xx"] != 0 {
		t.Errorf("counters %v", got)
	}
}
