package config

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Worker is the configuration okf-worker reads beside Config. The worker
// maps it onto its own options (worker.Options, safefetch.Options).
type Worker struct {
	// OpsAddr (OPS_ADDR) is the worker's operator listener. Unset, it is
	// DefaultWorkerOpsAddr rather than the API's default port: make run's
	// API and worker, and the tests' several workers, share one host.
	OpsAddr string
	// RescueAfter (OKF_WORKER_RESCUE_AFTER, a positive Go duration) is how
	// long a job may stay running before River gives it to another worker
	// (its process died). It also caps every job's timeout, so no attempt
	// outlives it.
	RescueAfter time.Duration
	// Fetch holds the test settings of the guarded fetch client.
	Fetch Fetch
	// Sweep configures the GitHub sweep; nil when GITHUB_TOKEN is unset,
	// the sweep is then off and its variables are not read.
	Sweep *Sweep
}

// Sweep configures the GitHub sweep.
type Sweep struct {
	// Seeds (OKF_SWEEP_SEEDS, comma-separated owner/name) are repositories
	// swept every round whatever the searches find.
	Seeds []RepoName
	// Queries (OKF_SWEEP_QUERIES, ";"-separated: a query may hold commas)
	// are the repository searches; DefaultSweepQueries when unset.
	Queries []string
	// CodeQueries (OKF_SWEEP_CODE_QUERIES, ";"-separated) are the code
	// searches; DefaultSweepCodeQueries when unset, nil when it is "off"
	// (code search off).
	CodeQueries []string
	// Workers (OKF_SWEEP_WORKERS, 1 to 100) is the number of sweep jobs one
	// process runs at once; DefaultSweepWorkers when unset.
	Workers int
}

// RepoName is a GitHub repository named owner/name.
type RepoName struct{ Owner, Name string }

// Defaults of the worker.
const (
	// DefaultWorkerOpsAddr is any free loopback port, named in the worker's
	// "worker started" log line.
	DefaultWorkerOpsAddr = "127.0.0.1:0"
	// DefaultRescueAfter equals the longest job timeout (every job kind
	// works in slices of at most 3 minutes; services/worker/README.md), so
	// the jobs of a crashed worker are retried within minutes.
	DefaultRescueAfter  = 3 * time.Minute
	DefaultSweepWorkers = 2
)

// Default searches of the sweep.
var (
	DefaultSweepQueries     = []string{"okf in:name,description,readme", "topic:okf", "okf_version in:readme", "\"knowledge bundle\" okf"}
	DefaultSweepCodeQueries = []string{"okf_version filename:index.md"}
)

// WorkerFromEnv reads the worker's configuration from the process
// environment.
func WorkerFromEnv() (Worker, error) { return LoadWorker(os.Getenv) }

// LoadWorker reads the worker's configuration through getenv and validates
// it. It reads the CA file OKF_FETCH_CA_FILE names.
func LoadWorker(getenv func(string) string) (Worker, error) {
	w := Worker{OpsAddr: or(getenv("OPS_ADDR"), DefaultWorkerOpsAddr), RescueAfter: DefaultRescueAfter}
	if v := getenv("OKF_WORKER_RESCUE_AFTER"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Worker{}, fmt.Errorf("config: OKF_WORKER_RESCUE_AFTER %q must be a positive duration such as 3m", v)
		}
		w.RescueAfter = d
	}
	var err error
	if w.Fetch, err = loadFetch(getenv); err != nil {
		return Worker{}, err
	}
	if getenv("GITHUB_TOKEN") != "" {
		s, err := loadSweep(getenv)
		if err != nil {
			return Worker{}, err
		}
		w.Sweep = &s
	}
	return w, nil
}

func loadSweep(getenv func(string) string) (Sweep, error) {
	s := Sweep{Queries: slices.Clone(DefaultSweepQueries), CodeQueries: slices.Clone(DefaultSweepCodeQueries),
		Workers: DefaultSweepWorkers}
	for _, v := range strings.Split(getenv("OKF_SWEEP_SEEDS"), ",") {
		if strings.TrimSpace(v) == "" {
			continue
		}
		owner, name, ok := strings.Cut(strings.TrimSpace(v), "/")
		if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
			return s, fmt.Errorf("config: OKF_SWEEP_SEEDS: %q is not owner/name", v)
		}
		s.Seeds = append(s.Seeds, RepoName{Owner: owner, Name: name})
	}
	if v := getenv("OKF_SWEEP_QUERIES"); v != "" {
		s.Queries = splitList(v)
	}
	if v := getenv("OKF_SWEEP_CODE_QUERIES"); v == "off" {
		s.CodeQueries = nil
	} else if v != "" {
		s.CodeQueries = splitList(v)
	}
	if v := getenv("OKF_SWEEP_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return s, fmt.Errorf("config: OKF_SWEEP_WORKERS %q must be a number from 1 to 100", v)
		}
		s.Workers = n
	}
	return s, nil
}

// splitList splits a ";"-separated list, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
