package ops_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/okfindex/okf-index/pkg/ops"
)

func TestRequireToken(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	basic := func(user, pass string) func(*http.Request) {
		return func(r *http.Request) { r.SetBasicAuth(user, pass) }
	}
	header := func(v string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", v) }
	}
	for _, tc := range []struct {
		name   string
		token  string
		auth   func(*http.Request)
		status int
	}{
		{"no token configured", "", header("Bearer "), http.StatusServiceUnavailable},
		{"no token configured, any credential", "", header("Bearer s3cret"), http.StatusServiceUnavailable},
		{"no credential", "s3cret", nil, http.StatusUnauthorized},
		{"wrong bearer", "s3cret", header("Bearer s3cre"), http.StatusUnauthorized},
		{"longer bearer", "s3cret", header("Bearer s3cret2"), http.StatusUnauthorized},
		{"empty bearer", "s3cret", header("Bearer "), http.StatusUnauthorized},
		{"wrong basic password", "s3cret", basic("s3cret", "nope"), http.StatusUnauthorized},
		{"other scheme", "s3cret", header("Token s3cret"), http.StatusUnauthorized},
		{"bearer", "s3cret", header("Bearer s3cret"), http.StatusTeapot},
		{"bearer, any case", "s3cret", header("bearer s3cret"), http.StatusTeapot},
		{"basic, token as password", "s3cret", basic("operator", "s3cret"), http.StatusTeapot},
		{"basic, empty user", "s3cret", basic("", "s3cret"), http.StatusTeapot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, ops.RiverUIPath, nil)
			if tc.auth != nil {
				tc.auth(r)
			}
			w := httptest.NewRecorder()
			ops.RequireToken(tc.token, inner).ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d", w.Code, tc.status)
			}
			challenge := w.Header().Get("WWW-Authenticate")
			if (tc.status == http.StatusUnauthorized) != (challenge != "") {
				t.Errorf("WWW-Authenticate %q with status %d", challenge, w.Code)
			}
			if challenge != "" && challenge[:6] != "Basic " {
				t.Errorf("challenge %q is not Basic", challenge)
			}
		})
	}
}

// TestRequireTokenRefusesCrossSiteWrites: with the token, a browser's
// write from another site is refused; reads, same-origin writes and
// scripts' writes (no Sec-Fetch-Site) pass.
func TestRequireTokenRefusesCrossSiteWrites(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, tc := range []struct {
		method, site string
		status       int
	}{
		{http.MethodPost, "cross-site", http.StatusForbidden},
		{http.MethodDelete, "same-site", http.StatusForbidden},
		{http.MethodPost, "same-origin", http.StatusTeapot},
		{http.MethodPost, "none", http.StatusTeapot},
		{http.MethodPost, "", http.StatusTeapot},
		{http.MethodGet, "cross-site", http.StatusTeapot},
	} {
		r := httptest.NewRequest(tc.method, ops.RiverUIPath+"api/jobs/cancel", nil)
		r.SetBasicAuth("operator", "s3cret")
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		w := httptest.NewRecorder()
		ops.RequireToken("s3cret", inner).ServeHTTP(w, r)
		if w.Code != tc.status {
			t.Errorf("%s with Sec-Fetch-Site %q: %d, want %d", tc.method, tc.site, w.Code, tc.status)
		}
	}
}

// TestCheckToken: the one comparison both the API and River UI use.
func TestCheckToken(t *testing.T) {
	for _, tc := range []struct {
		name, configured, presented string
		want                        error
	}{
		{"no token configured, none presented", "", "", ops.ErrTokenNotConfigured},
		{"no token configured, one presented", "", "s3cret", ops.ErrTokenNotConfigured},
		{"none presented", "s3cret", "", ops.ErrWrongToken},
		{"a prefix", "s3cret", "s3cre", ops.ErrWrongToken},
		{"longer", "s3cret", "s3cret2", ops.ErrWrongToken},
		{"other case", "s3cret", "S3CRET", ops.ErrWrongToken},
		{"the token", "s3cret", "s3cret", nil},
	} {
		if got := ops.CheckToken(tc.configured, tc.presented); !errors.Is(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBearerToken(t *testing.T) {
	for _, tc := range []struct {
		authorization, token string
		ok                   bool
	}{
		{"Bearer s3cret", "s3cret", true},
		{"bearer s3cret", "s3cret", true},
		{"BEARER  s3cret ", "s3cret", true},
		{"Bearer ", "", true},
		{"Bearer", "", false},
		{"Basic czNjcmV0", "", false},
		{"s3cret", "", false},
		{"", "", false},
	} {
		if token, ok := ops.BearerToken(tc.authorization); token != tc.token || ok != tc.ok {
			t.Errorf("%q: %q %v, want %q %v", tc.authorization, token, ok, tc.token, tc.ok)
		}
	}
}
