package ops_test

import (
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
