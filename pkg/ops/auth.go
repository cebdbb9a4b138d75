package ops

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
)

// Outcomes of CheckToken other than a match. Their texts are the plain
// answers of RequireToken.
var (
	// ErrTokenNotConfigured: the service has no operator token, so no
	// credential can match; an operator surface is never open by default.
	ErrTokenNotConfigured = errors.New("operator token (METRICS_TOKEN) is not configured")
	// ErrWrongToken: no credential, or one that is not the operator token.
	ErrWrongToken = errors.New("operator token required")
)

// CheckToken is the one check of the operator token (METRICS_TOKEN), for
// River UI (RequireToken) and the API's GET /api/metrics: nil when
// presented is the token, ErrTokenNotConfigured when the service has none
// (whatever was presented), ErrWrongToken otherwise. An empty presented
// stands for no credential. Each caller maps the two errors to its own 503
// and 401 answers.
//
// Both sides are hashed with SHA-256 before a constant-time comparison, so
// neither the token's content nor its length shows in the timing.
func CheckToken(configured, presented string) error {
	if configured == "" {
		return ErrTokenNotConfigured
	}
	got, want := sha256.Sum256([]byte(presented)), sha256.Sum256([]byte(configured))
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		return ErrWrongToken
	}
	return nil
}

// BearerToken returns the credential of an Authorization header value of
// the Bearer scheme (in any case), without surrounding spaces; ok is false
// for any other scheme, or a value with no space after the scheme.
func BearerToken(authorization string) (token string, ok bool) {
	scheme, cred, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(cred), true
}

// RequireToken lets through to h only requests that present token, as
// "Authorization: Bearer <token>" (scripts) or as the password of HTTP
// Basic auth, any user name (so a browser can open River UI). Others get
// 401 with a Basic challenge; with no token configured every request gets
// 503, since an operator page must never be open by default.
//
// Writes sent by a page of another site are refused (403) even with the
// token, since a browser adds cached Basic credentials on its own.
func RequireToken(token string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch err := CheckToken(token, presented(r)); {
		case errors.Is(err, ErrTokenNotConfigured):
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		case err != nil:
			w.Header().Set("WWW-Authenticate", `Basic realm="okf-index operator", charset="UTF-8"`)
			http.Error(w, err.Error(), http.StatusUnauthorized)
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
// the Basic password; "" when it carries neither.
func presented(r *http.Request) string {
	if token, ok := BearerToken(r.Header.Get("Authorization")); ok {
		return token
	}
	_, pass, _ := r.BasicAuth()
	return pass
}
