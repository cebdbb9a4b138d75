package worker

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// SweepConfig configures the GitHub sweep. The sweep runs only when the
// worker is given a GitHub client (GITHUB_TOKEN is set).
type SweepConfig struct {
	// Seeds are repositories always swept (OKF_SWEEP_SEEDS).
	Seeds []github.RepoRef
	// Queries are the repository searches of the first discoverer
	// (OKF_SWEEP_QUERIES); each is split into created: date windows.
	Queries []string
	// CodeQueries are the code searches of the second discoverer
	// (OKF_SWEEP_CODE_QUERIES); each is split into size: ranges. Empty
	// turns code search off.
	CodeQueries []string
	// Since is the first day of the date windows (GitHub opened in 2008).
	Since time.Time
	// BatchSize is the number of repositories per sweep_repos job.
	BatchSize int
	// DiscoverEvery and EnrichEvery are the periods of the periodic jobs.
	DiscoverEvery time.Duration
	EnrichEvery   time.Duration
	// Workers is the number of sweep jobs one process runs at once.
	Workers int
}

// Defaults of the sweep.
var (
	DefaultSweepQueries     = []string{"okf in:name,description,readme", "topic:okf", "okf_version in:readme", "\"knowledge bundle\" okf"}
	DefaultSweepCodeQueries = []string{"okf_version filename:index.md"}
)

// MaxCodeSize is the largest file GitHub's code search indexes (384 KB):
// the top of the size: ranges.
const MaxCodeSize = 384 * 1024

// SweepConfigFromEnv reads the sweep's variables through getenv:
//
//	OKF_SWEEP_SEEDS         comma-separated owner/name list, swept every round
//	OKF_SWEEP_QUERIES       ";"-separated repository searches (queries may hold commas)
//	OKF_SWEEP_CODE_QUERIES  ";"-separated code searches; "off" turns code search off
//	OKF_SWEEP_WORKERS       sweep jobs one process runs at once (default 2)
func SweepConfigFromEnv(getenv func(string) string) (SweepConfig, error) {
	c := SweepConfig{Queries: DefaultSweepQueries, CodeQueries: DefaultSweepCodeQueries}
	for _, s := range strings.Split(getenv("OKF_SWEEP_SEEDS"), ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		r, err := github.ParseRepoRef(s)
		if err != nil {
			return c, fmt.Errorf("worker: OKF_SWEEP_SEEDS: %w", err)
		}
		c.Seeds = append(c.Seeds, r)
	}
	if v := getenv("OKF_SWEEP_QUERIES"); v != "" {
		c.Queries = splitList(v)
	}
	if v := getenv("OKF_SWEEP_CODE_QUERIES"); v == "off" {
		c.CodeQueries = nil
	} else if v != "" {
		c.CodeQueries = splitList(v)
	}
	if v := getenv("OKF_SWEEP_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return c, fmt.Errorf("worker: OKF_SWEEP_WORKERS %q must be a number from 1 to 100", v)
		}
		c.Workers = n
	}
	return c, nil
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (c *SweepConfig) fill() {
	if c.Since.IsZero() {
		c.Since = time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if c.BatchSize == 0 {
		c.BatchSize = 25
	}
	if c.DiscoverEvery == 0 {
		c.DiscoverEvery = jobs.SweepDiscoverEvery
	}
	if c.EnrichEvery == 0 {
		c.EnrichEvery = jobs.EnrichReposEvery
	}
	if c.Workers == 0 {
		c.Workers = 2
	}
}

func toRefs(rs []github.RepoRef) []store.CandidateRef {
	out := make([]store.CandidateRef, len(rs))
	for i, r := range rs {
		out[i] = store.CandidateRef{Owner: r.Owner, Name: r.Name}
	}
	return out
}
