package config

import (
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
		c.X402Mode != DefaultX402Mode || c.X402Facilitator != DefaultX402Facilitator || c.X402PayTo != "" {
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
