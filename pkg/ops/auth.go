package ops

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// RequireToken lets through to h only requests that present token, as
// "Authorization: Bearer <token>" (scripts) or as the password of HTTP
// Basic auth, any user name (so a browser can open River UI). Others get
// 401 with a Basic challenge; with no token configured every request gets
// 503, since an operator page must never be open by default.
//
// Writes sent by a page of another site are refused (403) even with the
// token, since a browser adds cached Basic credentials on its own.
//
// Both sides are hashed with SHA-256 before a constant-time comparison, so
// neither the token's content nor its length shows in the timing.
func RequireToken(token string, h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			http.Error(w, "operator token (METRICS_TOKEN) is not configured", http.StatusServiceUnavailable)
			return
		}
		got, ok := presented(r)
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="okf-index operator", charset="UTF-8"`)
			http.Error(w, "operator token required", http.StatusUnauthorized)
			return
		}
		if crossSiteWrite(r) {
			http.Error(w, "a request from another site may not change anything here", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// crossSiteWrite reports a request that could change something (not GET,
// HEAD or OPTIONS) sent by a page of another site. A browser resends cached
// Basic credentials with any request to this origin, so a hostile page
// could otherwise act in River UI through an operator's browser; browsers
// mark such requests with Sec-Fetch-Site, and scripts do not send it.
func crossSiteWrite(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	site := r.Header.Get("Sec-Fetch-Site")
	return site != "" && site != "same-origin" && site != "none"
}

// presented returns the token a request carries: the Bearer credential, or
// the Basic password.
func presented(r *http.Request) (string, bool) {
	if scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(cred), true
	}
	_, pass, ok := r.BasicAuth()
	return pass, ok
}
