package config

import (
	"fmt"
	"net/url"
)

// Signature algorithms a session or identity event may be signed with
// (AUTH_ALG). One is pinned per deployment; none, HMAC and RSA are refused.
const (
	AlgEdDSA = "EdDSA"
	AlgES256 = "ES256"
)

// Defaults of the auth variables.
const (
	DefaultAuthAlg      = AlgEdDSA
	DefaultAuthIssuer   = "house-identity"
	DefaultAuthAudience = "okf" // this product's id
)

// MinCSRFSecret is the shortest AUTH_CSRF_SECRET accepted, in bytes.
const MinCSRFSecret = 32

// Auth configures the full variant's sessions: where the identity
// service's public keys come from (a JWKS URL, fetched, cached and
// refreshed; or a JWKS file), the pinned algorithm, the issuer and
// audience every token must carry, and the key that signs CSRF tokens.
// With neither JWKSURL nor KeyFile no session can be verified: the account
// routes answer 503 auth_unavailable to a request that presents one.
type Auth struct {
	JWKSURL    string // AUTH_JWKS_URL
	KeyFile    string // AUTH_KEY_FILE: a JWKS document on disk
	Alg        string // AUTH_ALG: EdDSA or ES256
	Issuer     string // AUTH_ISSUER: the iss of sessions and events
	Audience   string // AUTH_AUDIENCE: this product's id, the aud and product of its sessions
	CSRFSecret string // AUTH_CSRF_SECRET: "" means a random key per process
	// SignInURL is the identity service's sign-in page (AUTH_SIGNIN_URL),
	// which the account page links when nobody is signed in; "" names none.
	SignInURL string
}

// Configured reports whether a key source is configured.
func (a Auth) Configured() bool { return a.JWKSURL != "" || a.KeyFile != "" }

func loadAuth(getenv func(string) string) (Auth, error) {
	a := Auth{
		JWKSURL:    getenv("AUTH_JWKS_URL"),
		KeyFile:    getenv("AUTH_KEY_FILE"),
		Alg:        or(getenv("AUTH_ALG"), DefaultAuthAlg),
		Issuer:     or(getenv("AUTH_ISSUER"), DefaultAuthIssuer),
		Audience:   or(getenv("AUTH_AUDIENCE"), DefaultAuthAudience),
		CSRFSecret: getenv("AUTH_CSRF_SECRET"),
		SignInURL:  getenv("AUTH_SIGNIN_URL"),
	}
	if a.JWKSURL != "" && a.KeyFile != "" {
		return Auth{}, fmt.Errorf("config: set AUTH_JWKS_URL or AUTH_KEY_FILE, not both")
	}
	if a.JWKSURL != "" {
		if u, err := url.Parse(a.JWKSURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Auth{}, fmt.Errorf("config: AUTH_JWKS_URL %q must be an absolute http(s) URL", a.JWKSURL)
		}
	}
	if a.SignInURL != "" {
		if u, err := url.Parse(a.SignInURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Auth{}, fmt.Errorf("config: AUTH_SIGNIN_URL %q must be an absolute http(s) URL", a.SignInURL)
		}
	}
	if a.Alg != AlgEdDSA && a.Alg != AlgES256 {
		return Auth{}, fmt.Errorf("config: AUTH_ALG %q must be %s or %s", a.Alg, AlgEdDSA, AlgES256)
	}
	if a.CSRFSecret != "" && len(a.CSRFSecret) < MinCSRFSecret {
		return Auth{}, fmt.Errorf("config: AUTH_CSRF_SECRET must be at least %d bytes", MinCSRFSecret)
	}
	return a, nil
}
