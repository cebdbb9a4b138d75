package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
)

// okfctl session mint signs with the development key okfctl run makes,
// and its sessions verify against the JWKS okfctl run configures; it
// refuses when the environment names production keys.
func TestSessionMint(t *testing.T) {
	data := t.TempDir()
	_, jwks, err := identity.EnsureDevKey(filepath.Join(data, devIdentityDir))
	if err != nil {
		t.Fatal(err)
	}
	run := func(env map[string]string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := sessionCmd(append([]string{args[0], "-data", data}, args[1:]...), func(k string) string { return env[k] }, &out, &errOut)
		return strings.TrimSpace(out.String()), err
	}
	tok, err := run(map[string]string{"AUTH_KEY_FILE": jwks}, "mint", "-sub", "ana", "-mfa", "-org", "org-1:owner")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := config.Load(func(k string) string { return map[string]string{"AUTH_KEY_FILE": jwks}[k] })
	ks, err := identity.NewKeySource(t.Context(), cfg.Auth, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := identity.NewVerifier(ks, cfg.Auth, nil).Session(t.Context(), tok)
	if err != nil || s.IdentityID != "ana" || !s.SecondFactor() || len(s.Orgs) != 1 || s.Orgs[0].Products[0] != "okf" {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := run(nil, "event", "password-changed"); err != nil {
		t.Errorf("event: %v", err)
	}
	// Production keys: refused.
	other, _ := identity.NewSigner(config.AlgEdDSA)
	doc, _ := other.JWKS()
	prod := filepath.Join(t.TempDir(), "jwks.json")
	os.WriteFile(prod, doc, 0o644)
	for name, env := range map[string]map[string]string{
		"a JWKS URL":        {"AUTH_JWKS_URL": "https://identity.example/jwks.json"},
		"another key file":  {"AUTH_KEY_FILE": prod},
		"another algorithm": {"AUTH_ALG": "ES256"},
	} {
		if tok, err := run(env, "mint"); err == nil || tok != "" {
			t.Errorf("%s: minted", name)
		}
	}
}
