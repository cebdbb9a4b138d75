package config

import "slices"

// variables are the environment variables the binaries read, all through
// this package, in the order of the configuration table of docs/operating.md.
var variables = []string{
	// Load: every binary.
	"DATABASE_URL", "DATABASE_READ_URL", "API_ADDR", "OPS_ADDR", "PUBLIC_BASE_URL", "VARIANT",
	"GITHUB_TOKEN", "GITHUB_GRAPHQL_URL", "METRICS_TOKEN", "SECURITY_CONTACT", "MCP_REGISTRY_AUTH",
	"SHUTDOWN_DELAY", "SEARCH_STALENESS", "X402_NETWORK", "X402_PAY_TO", "X402_FACILITATOR_URL", "X402_MODE",
	"AUTH_JWKS_URL", "AUTH_KEY_FILE", "AUTH_ALG", "AUTH_ISSUER", "AUTH_AUDIENCE", "AUTH_CSRF_SECRET", "AUTH_SIGNIN_URL", "PG_BIN",
	"TRUSTED_PROXY_HEADER", "PING_RATE_PER_MINUTE",
	"CONTACT_MAIL_TO", "SMTP_FROM", "SMTP_ADDR", "SMTP_USERNAME", "SMTP_PASSWORD", "CAPTCHA_VERIFY_URL", "CAPTCHA_SECRET",
	"PARTNERS_FILE",
	"VITRINE_COLLECTOR",
	// LoadWorker: okf-worker (OPS_ADDR and GITHUB_TOKEN too).
	"OKF_SWEEP_SEEDS", "OKF_SWEEP_QUERIES", "OKF_SWEEP_CODE_QUERIES", "OKF_SWEEP_WORKERS",
	"OKF_WORKER_RESCUE_AFTER",
	"OKF_FETCH_ALLOW_LOOPBACK", "OKF_FETCH_CA_FILE", "OKF_FETCH_DIAL_OVERRIDE",
}

// Variables returns the names of every environment variable the binaries
// read: what Load, LoadWorker and LoadDatabaseURL read, and what the
// configuration table of docs/operating.md documents (both are tested).
//
// Not here, on purpose: the settings of test harnesses, which no binary
// reads. OKF_TEST_DATABASE_URL (an admin URL pkg/store/storetest makes test
// databases on), OKF_NODE_TOOLS (the Node tools of the API's MCP client
// tests), OKF_BENCH_N, OKF_BENCH_ITERS and OKF_BENCH_EXPLAIN (pkg/store's
// benchmarks) are read by the tests that use them. PG_BIN is here for
// okfctl run; pkg/pgcluster also reads it itself for the test harnesses
// that start a cluster without a BinDir.
func Variables() []string { return slices.Clone(variables) }
