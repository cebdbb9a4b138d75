// Package config reads the service's configuration from the environment
// (the table in DESIGN.md). It owns the variable names and their defaults and
// validates them once at start, so a bad value stops a binary with a clear
// message instead of surfacing later.
package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Variants of a deployment.
const (
	VariantBase = "base"
	VariantFull = "full"
)

// Config is the service configuration.
type Config struct {
	DatabaseURL     string // DATABASE_URL; "" means the embedded cluster of make run
	DatabaseReadURL string // DATABASE_READ_URL; defaults to DatabaseURL
	APIAddr         string // API_ADDR
	OpsAddr         string // OPS_ADDR
	PublicBaseURL   string // PUBLIC_BASE_URL, without a trailing slash
	Variant         string // VARIANT: base or full
	GitHubToken     string // GITHUB_TOKEN; the sweep is off without it
	GitHubGraphQL   string // GITHUB_GRAPHQL_URL
	MetricsToken    string // METRICS_TOKEN
}

// Defaults.
const (
	DefaultAPIAddr       = "127.0.0.1:8080"
	DefaultOpsAddr       = "127.0.0.1:9090"
	DefaultGitHubGraphQL = "https://api.github.com/graphql"
)

// FromEnv reads the configuration from the process environment.
func FromEnv() (Config, error) { return Load(os.Getenv) }

// Load reads the configuration through getenv and validates it.
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		DatabaseURL:     getenv("DATABASE_URL"),
		DatabaseReadURL: getenv("DATABASE_READ_URL"),
		APIAddr:         or(getenv("API_ADDR"), DefaultAPIAddr),
		OpsAddr:         or(getenv("OPS_ADDR"), DefaultOpsAddr),
		PublicBaseURL:   getenv("PUBLIC_BASE_URL"),
		Variant:         or(getenv("VARIANT"), VariantBase),
		GitHubToken:     getenv("GITHUB_TOKEN"),
		GitHubGraphQL:   or(getenv("GITHUB_GRAPHQL_URL"), DefaultGitHubGraphQL),
		MetricsToken:    getenv("METRICS_TOKEN"),
	}
	if c.DatabaseReadURL == "" {
		c.DatabaseReadURL = c.DatabaseURL
	}
	if c.PublicBaseURL == "" {
		c.PublicBaseURL = "http://" + c.APIAddr
	}
	c.PublicBaseURL = strings.TrimRight(c.PublicBaseURL, "/")
	u, err := url.Parse(c.PublicBaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Config{}, fmt.Errorf("config: PUBLIC_BASE_URL %q must be an absolute http(s) URL", c.PublicBaseURL)
	}
	if c.Variant != VariantBase && c.Variant != VariantFull {
		return Config{}, fmt.Errorf("config: VARIANT %q must be %q or %q", c.Variant, VariantBase, VariantFull)
	}
	return c, nil
}

// Full reports whether this is the full variant.
func (c Config) Full() bool { return c.Variant == VariantFull }

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
