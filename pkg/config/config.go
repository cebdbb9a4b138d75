// Package config reads the service's configuration from the environment
// (the table in DESIGN.md and the "Configuration" table of docs/operating.md). It is the one
// place a binary reads an environment variable: it owns the variable names
// (Variables) and their defaults and validates them once at start, so a bad
// value stops a binary with a clear message that names the variable instead
// of surfacing later. It returns plain values and imports nothing of the
// service, so every binary and package may use it.
//
// Load reads what every binary shares; LoadWorker okf-worker's own
// variables (worker.go); LoadDatabaseURL DATABASE_URL alone, for the okfctl
// commands that need nothing else.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
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

	// Published in the discovery documents.
	SecurityContact string // SECURITY_CONTACT: a mailto: or https: URI; defaults to the about page
	MCPRegistryAuth string // MCP_REGISTRY_AUTH: the /.well-known/mcp-registry-auth line (a public key)

	// x402 payments of the full variant (published by GET /api/billing).
	X402Network     string // X402_NETWORK: base or base-sepolia
	X402PayTo       string // X402_PAY_TO: receiving address; "" is not configured
	X402Facilitator string // X402_FACILITATOR_URL
	X402Mode        string // X402_MODE: live or dev; required on the full variant, no default

	// Contact is where the full variant's contact messages go and how its
	// captcha is verified (contact.go).
	Contact Contact

	// PartnersFile (PARTNERS_FILE) is the YAML file of the full variant's
	// partnership offer (GET /api/partners); "" is the embedded default.
	// The API reads and validates it at start (pkg/partners).
	PartnersFile string

	// Auth is how the full variant verifies the house's global session and
	// the identity service's signed events (auth.go).
	Auth Auth

	// ShutdownDelay (SHUTDOWN_DELAY, a Go duration, 0 to 60s) is how long
	// the API keeps serving after SIGTERM while its readiness already
	// fails, so a load balancer stops sending it traffic before its
	// listener closes. 0 in development; a few seconds behind Kubernetes.
	ShutdownDelay time.Duration

	// SearchStaleness (SEARCH_STALENESS, a Go duration, 0 to 60s) is how
	// long the API may serve a cached search page after a bundle write
	// could have changed it, with its Age; 0 (the default) serves every
	// page exact as of the request's arrival. Cards and a client's own
	// writes are exact either way.
	SearchStaleness time.Duration

	// PGBin (PG_BIN) is the directory of initdb and pg_ctl for the embedded
	// cluster of okfctl run (pgcluster.Options.BinDir); "" lets pgcluster
	// search. It is checked only when a cluster starts.
	PGBin string

	// TrustedProxyHeader (TRUSTED_PROXY_HEADER) names the header in which
	// the reverse proxy in front of the API passes the client's address
	// (X-Forwarded-For: its last entry, the one the proxy appended); ""
	// takes the TCP peer. Set it only behind a proxy that always sets the
	// header: otherwise a client could write its own.
	TrustedProxyHeader string
	// VitrineCollector (VITRINE_COLLECTOR, on or off; on when unset) says
	// whether the collector of the full variant runs: the worker's hourly
	// publish_vitrine job, which publishes the usage projection and the
	// operator documents. Off, the worker does not schedule it and the
	// API's operator routes answer 503 collector_not_configured; it means
	// nothing on base.
	VitrineCollector bool
	// PingRatePerMinute (PING_RATE_PER_MINUTE) is how many POST /api/ping
	// requests (and submit_bundles calls) one client address may make a
	// minute, per API process.
	PingRatePerMinute int
}

// Defaults.
const (
	DefaultAPIAddr         = "127.0.0.1:8080"
	DefaultOpsAddr         = "127.0.0.1:9090"
	DefaultGitHubGraphQL   = "https://api.github.com/graphql"
	DefaultX402Network     = "base-sepolia"
	DefaultX402Facilitator = "https://x402.org/facilitator"
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
		SecurityContact: getenv("SECURITY_CONTACT"),
		MCPRegistryAuth: strings.TrimSpace(getenv("MCP_REGISTRY_AUTH")),
		X402Network:     or(getenv("X402_NETWORK"), DefaultX402Network),
		X402PayTo:       getenv("X402_PAY_TO"),
		X402Facilitator: or(getenv("X402_FACILITATOR_URL"), DefaultX402Facilitator),
		X402Mode:        getenv("X402_MODE"),
		PGBin:           getenv("PG_BIN"),
		PartnersFile:    getenv("PARTNERS_FILE"),
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
	if c.SecurityContact == "" {
		c.SecurityContact = c.PublicBaseURL + "/okf/sobre.md"
	}
	if u, err := url.Parse(c.SecurityContact); err != nil || (u.Scheme != "mailto" && u.Scheme != "https" && u.Scheme != "http") {
		return Config{}, fmt.Errorf("config: SECURITY_CONTACT %q must be a mailto: or https: URI", c.SecurityContact)
	}
	if strings.ContainsAny(c.MCPRegistryAuth, "\r\n") {
		return Config{}, fmt.Errorf("config: MCP_REGISTRY_AUTH must be one line")
	}
	if c.X402Network != "base" && c.X402Network != "base-sepolia" {
		return Config{}, fmt.Errorf("config: X402_NETWORK %q must be base or base-sepolia", c.X402Network)
	}
	if err := checkPayments(getenv, c); err != nil {
		return Config{}, err
	}
	if c.ShutdownDelay, err = upToAMinute(getenv, "SHUTDOWN_DELAY"); err != nil {
		return Config{}, err
	}
	if c.SearchStaleness, err = upToAMinute(getenv, "SEARCH_STALENESS"); err != nil {
		return Config{}, err
	}
	if u, err := url.Parse(c.X402Facilitator); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Config{}, fmt.Errorf("config: X402_FACILITATOR_URL %q must be an absolute http(s) URL", c.X402Facilitator)
	}
	switch v := getenv("VITRINE_COLLECTOR"); v {
	case "", "on":
		c.VitrineCollector = true
	case "off":
	default:
		return Config{}, fmt.Errorf("config: VITRINE_COLLECTOR %q must be on or off", v)
	}
	if c.Auth, err = loadAuth(getenv); err != nil {
		return Config{}, err
	}
	if err := loadClients(getenv, &c); err != nil {
		return Config{}, err
	}
	if err := loadContact(getenv, &c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// upToAMinute reads the duration of name, from 0s to 60s; unset is 0.
func upToAMinute(getenv func(string) string, name string) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Minute {
		return 0, fmt.Errorf("config: %s %q must be a duration from 0s to 60s", name, v)
	}
	return d, nil
}

// LoadDatabaseURL reads DATABASE_URL alone, for the commands that need
// nothing else (okfctl migrate and import): unlike Load it checks no other
// variable. Unset is an error (worded as the binaries word it).
func LoadDatabaseURL(getenv func(string) string) (string, error) {
	u := getenv("DATABASE_URL")
	if u == "" {
		return "", errors.New("DATABASE_URL is not set")
	}
	return u, nil
}

// checkPayments refuses a full variant that does not say how it takes
// money: X402_MODE has no default (dev credit must never be minted by
// accident), and live needs its receiving address and its facilitator,
// both set explicitly.
func checkPayments(getenv func(string) string, c Config) error {
	switch {
	case c.X402Mode == "" && c.Variant == VariantFull:
		return errors.New("config: X402_MODE is not set: the full variant takes payments, so set X402_MODE=live (real money) or X402_MODE=dev (simulated, never where people pay)")
	case c.X402Mode != "" && c.X402Mode != "live" && c.X402Mode != "dev":
		return fmt.Errorf("config: X402_MODE %q must be live or dev", c.X402Mode)
	case c.X402Mode == "live" && !evmAddress(c.X402PayTo):
		return fmt.Errorf("config: X402_MODE=live needs X402_PAY_TO, the receiving address (0x and 40 hex digits); it is %q", c.X402PayTo)
	case c.X402Mode == "live" && c.X402Network == "base" && strings.Trim(c.X402PayTo[2:], "0") == "":
		return errors.New("config: X402_PAY_TO is the zero address, which takes no payment: set your receiving address for X402_MODE=live on base")
	case c.X402Mode == "live" && getenv("X402_FACILITATOR_URL") == "":
		return errors.New("config: X402_MODE=live needs X402_FACILITATOR_URL, the facilitator that verifies and settles")
	case c.X402PayTo != "" && !evmAddress(c.X402PayTo):
		return fmt.Errorf("config: X402_PAY_TO %q must be an address: 0x and 40 hex digits", c.X402PayTo)
	}
	return nil
}

// evmAddress reports whether s is 0x and 40 hex digits.
func evmAddress(s string) bool {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") {
		return false
	}
	for _, r := range s[2:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// Full reports whether this is the full variant.
func (c Config) Full() bool { return c.Variant == VariantFull }

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// LoadFacilitatorURL reads X402_FACILITATOR_URL alone (DefaultX402Facilitator
// when unset), for okfctl payments, which settles by hand what the
// deployment could not.
func LoadFacilitatorURL(getenv func(string) string) (string, error) {
	u := or(getenv("X402_FACILITATOR_URL"), DefaultX402Facilitator)
	if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "", fmt.Errorf("config: X402_FACILITATOR_URL %q must be an absolute http(s) URL", u)
	}
	return u, nil
}
