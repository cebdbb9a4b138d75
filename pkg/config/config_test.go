package config

import (
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIAddr != DefaultAPIAddr || c.OpsAddr != DefaultOpsAddr || c.PublicBaseURL != "http://"+DefaultAPIAddr ||
		c.Variant != VariantBase || c.Full() || c.GitHubGraphQL != DefaultGitHubGraphQL {
		t.Errorf("defaults: %+v", c)
	}

	c, err = Load(env(map[string]string{
		"DATABASE_URL": "postgres://db/okf", "PUBLIC_BASE_URL": "https://okf.example/", "VARIANT": "full", "API_ADDR": ":9000",
		"X402_MODE": "dev",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseReadURL != "postgres://db/okf" || c.PublicBaseURL != "https://okf.example" || !c.Full() || c.APIAddr != ":9000" {
		t.Errorf("overrides: %+v", c)
	}
	if c, err := Load(env(map[string]string{"SHUTDOWN_DELAY": "5s"})); err != nil || c.ShutdownDelay != 5*time.Second {
		t.Errorf("SHUTDOWN_DELAY 5s: %v, %v", c.ShutdownDelay, err)
	}
	if c.SecurityContact != "https://okf.example/okf/sobre.md" || c.X402Network != DefaultX402Network ||
		c.X402Mode != "dev" || c.X402Facilitator != DefaultX402Facilitator || c.X402PayTo != "" {
		t.Errorf("discovery and payment defaults: %+v", c)
	}

	for _, bad := range []map[string]string{
		{"VARIANT": "pro"},
		{"PUBLIC_BASE_URL": "okf.example"},
		{"PUBLIC_BASE_URL": "ftp://okf.example"},
		{"SECURITY_CONTACT": "security@okf.example"},
		{"MCP_REGISTRY_AUTH": "v=MCPv1; k=ed25519;\np=abc"},
		{"X402_NETWORK": "ethereum"},
		{"X402_MODE": "test"},
		{"X402_FACILITATOR_URL": "facilitator.example"},
		{"SHUTDOWN_DELAY": "5"},
		{"SHUTDOWN_DELAY": "2m"},
		{"SHUTDOWN_DELAY": "-1s"},
	} {
		if _, err := Load(env(bad)); err == nil {
			t.Errorf("Load(%v) accepted a bad value", bad)
		}
	}
}

// TestPaymentModeHasNoDefault: the full variant does not start without
// X402_MODE, and live does not start without its address and facilitator;
// each refusal is one line naming the variable.
func TestPaymentModeHasNoDefault(t *testing.T) {
	const payTo = "0x1111111111111111111111111111111111111111"
	for _, tc := range []struct {
		env  map[string]string
		want string // the variable the refusal names; "" accepted
	}{
		{map[string]string{"VARIANT": "full"}, "X402_MODE"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "Live"}, "X402_MODE"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "live", "X402_FACILITATOR_URL": "https://f.example"}, "X402_PAY_TO"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "live", "X402_PAY_TO": "0x11", "X402_FACILITATOR_URL": "https://f.example"}, "X402_PAY_TO"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "live", "X402_PAY_TO": payTo}, "X402_FACILITATOR_URL"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "dev", "X402_PAY_TO": "nope"}, "X402_PAY_TO"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "live", "X402_NETWORK": "base", "X402_PAY_TO": "0x" + strings.Repeat("0", 40),
			"X402_FACILITATOR_URL": "https://f.example"}, "X402_PAY_TO"},
		{map[string]string{"VARIANT": "full", "X402_MODE": "live", "X402_PAY_TO": payTo, "X402_FACILITATOR_URL": "https://f.example"}, ""},
		{map[string]string{"VARIANT": "full", "X402_MODE": "dev"}, ""},
		{map[string]string{"VARIANT": "base"}, ""},
	} {
		_, err := Load(func(k string) string { return tc.env[k] })
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tc.env, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%v: %v, want one line naming %s", tc.env, err, tc.want)
		}
	}
}
