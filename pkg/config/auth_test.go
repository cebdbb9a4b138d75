package config

import (
	"strings"
	"testing"
)

func TestLoadAuth(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil || c.Auth.Configured() || c.Auth.Alg != AlgEdDSA || c.Auth.Audience != "okf" || c.Auth.Issuer != DefaultAuthIssuer {
		t.Fatalf("defaults: %+v %v", c.Auth, err)
	}
	for name, env := range map[string]map[string]string{
		"both sources":      {"AUTH_JWKS_URL": "https://id.example/jwks.json", "AUTH_KEY_FILE": "/k.json"},
		"relative JWKS URL": {"AUTH_JWKS_URL": "/jwks.json"},
		"HMAC":              {"AUTH_ALG": "HS256"},
		"none":              {"AUTH_ALG": "none"},
		"RSA":               {"AUTH_ALG": "RS256"},
		"short CSRF secret": {"AUTH_CSRF_SECRET": "short"},
		"ftp JWKS":          {"AUTH_JWKS_URL": "ftp://id.example/jwks.json"},
		"relative sign-in":  {"AUTH_SIGNIN_URL": "/login"},
	} {
		if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "AUTH_") {
			t.Errorf("%s: %v", name, err)
		}
	}
	c, err = Load(func(k string) string {
		return map[string]string{"AUTH_JWKS_URL": "https://id.example/jwks.json", "AUTH_ALG": "ES256", "AUTH_CSRF_SECRET": strings.Repeat("k", 32)}[k]
	})
	if err != nil || !c.Auth.Configured() || c.Auth.Alg != AlgES256 {
		t.Fatalf("%+v %v", c.Auth, err)
	}
}
