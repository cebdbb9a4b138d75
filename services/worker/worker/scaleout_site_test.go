package worker_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/safefetch/safefetchtest"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// The domains of the scale-out test: one local TLS server answers for all
// three, and the worker processes reach it by name through
// OKF_FETCH_DIAL_OVERRIDE, so pings go through the API with real domain
// names.
const (
	hostA    = "site-a.test"
	hostB    = "site-b.test"
	hostDocs = "docs.okf-test.example"
)

// domainRoot is a bundle root unique to its URL (so no two are duplicates
// of each other or of a corpus root).
func domainRoot(host, dir, title string) string {
	return fmt.Sprintf("---\nokf_version: \"0.2\"\ntitle: %s\ndescription: %s served by %s\n---\n\n"+
		"# %s\n\n- [Setup](setup.md) - how %s sets up %s\n- [Usage](usage.md)\n", title, title, host, title, host, dir)
}

// domainFiles is what each domain serves, by path.
var domainFiles = map[string]map[string]string{
	hostA: {
		"/site-a-key-0001.txt": "site-a-key-0001\n",
		"/guide/index.md":      domainRoot(hostA, "guide", "Site A Guide"),
		"/handbook/index.md":   domainRoot(hostA, "handbook", "Site A Handbook"),
		"/notes.md":            "# Notes\n\nNo frontmatter, not a bundle.\n",
	},
	hostB: {
		"/keys/okf.txt":    "site-b-key-0002",
		"/okf/index.md":    domainRoot(hostB, "okf", "Site B Knowledge"),
		"/drafts/index.md": domainRoot(hostB, "drafts", "Site B Drafts"),
	},
	hostDocs: {
		"/docs-key-0003.txt": "  docs-key-0003  \n",
		"/index.md":          domainRoot(hostDocs, "root", "Docs Home"),
		"/api/index.md":      domainRoot(hostDocs, "api", "Docs API"),
		"/private/index.md":  domainRoot(hostDocs, "private", "Docs Private"),
	},
}

// domainSite starts the local TLS server of the domains and writes its
// certificate where OKF_FETCH_CA_FILE can name it. It returns the worker
// processes' fetch settings.
func domainSite(t *testing.T) (fetchEnv []string) {
	t.Helper()
	srv := safefetchtest.NewTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := domainFiles[strings.ToLower(r.Host)][r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}), hostA, hostB, hostDocs)
	caFile := filepath.Join(t.TempDir(), "domains-ca.pem")
	if err := os.WriteFile(caFile, srv.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"OKF_FETCH_ALLOW_LOOPBACK=1", "OKF_FETCH_CA_FILE=" + caFile,
		"OKF_FETCH_DIAL_OVERRIDE=" + srv.DialOverrideEnv()}
}

// pingCall is one POST /api/ping of the stream and the status it must get.
type pingCall struct {
	body   string
	status int
}

func pingBody(host, key, keyLocation string, paths ...string) string {
	var urls []string
	for _, p := range paths {
		if strings.Contains(p, "://") {
			urls = append(urls, fmt.Sprintf("%q", p))
		} else {
			urls = append(urls, fmt.Sprintf("%q", "https://"+host+p))
		}
	}
	loc := ""
	if keyLocation != "" {
		loc = fmt.Sprintf(`,"keyLocation":%q`, keyLocation)
	}
	return fmt.Sprintf(`{"host":%q,"key":%q,"urlList":[%s]%s}`, host, key, strings.Join(urls, ","), loc)
}

// pingRound is one round of the ping stream. Accepted pings either carry
// the host's key or a wrong one, never both for the same URL, so each URL's
// outcome does not depend on the order the workers take the jobs in; the
// refused ones never reach the database.
var pingRound = []pingCall{
	{pingBody(hostA, "site-a-key-0001", "", "/guide/index.md", "/handbook/index.md", "/notes.md", "/gone/index.md"), http.StatusAccepted},
	{pingBody(hostB, "site-b-key-0002", "https://site-b.test/keys/okf.txt", "/okf/index.md"), http.StatusAccepted},
	{pingBody(hostB, "not-site-b-key", "https://site-b.test/keys/okf.txt", "/drafts/index.md"), http.StatusAccepted},
	{pingBody(hostDocs, "docs-key-0003", "", "/index.md", "/api/index.md"), http.StatusAccepted},
	{pingBody(hostDocs, "docs-key-9999", "", "/private/index.md"), http.StatusAccepted},
	{pingBody(hostA+":443", "site-a-key-0001", "", "https://site-a.test/guide/index.md"), http.StatusBadRequest},
	{pingBody("127.0.0.1", "site-a-key-0001", "", "/guide/index.md"), http.StatusBadRequest},
	{pingBody(hostA, "short", "", "/guide/index.md"), http.StatusBadRequest},
	{pingBody(hostA, "site-a-key-0001", "", "https://site-b.test/okf/index.md"), http.StatusUnprocessableEntity},
	{pingBody(hostA, "site-a-key-0001", "", "http://site-a.test/guide/index.md"), http.StatusUnprocessableEntity},
	{pingBody(hostB, "site-b-key-0002", "https://site-a.test/keys/okf.txt", "/okf/index.md"), http.StatusUnprocessableEntity},
}

// acceptedPerRound is the number of accepted pings (verify_ping jobs) of
// one round.
func acceptedPerRound() int {
	n := 0
	for _, p := range pingRound {
		if p.status == http.StatusAccepted {
			n++
		}
	}
	return n
}

// maxPingRounds keeps site-a.test (4 URLs a round) under the daily cap.
const maxPingRounds = store.PingDailyCap / 4

// pingOutcome is what became of one submitted URL; the scale-out test
// counts them.
type pingOutcome struct {
	Host, URL, State, BundleID, Reason string
}

// wantPingOutcomes is the outcome of every URL of rounds rounds.
func wantPingOutcomes(rounds int) map[pingOutcome]int {
	pub := func(host, path string) pingOutcome {
		u := "https://" + host + path
		return pingOutcome{host, u, string(wire.PingPublished), source.Site{URL: u}.ID(), ""}
	}
	rej := func(host, path, reason string) pingOutcome {
		return pingOutcome{host, "https://" + host + path, string(wire.PingRejected), "", reason}
	}
	out := map[pingOutcome]int{}
	for _, o := range []pingOutcome{
		pub(hostA, "/guide/index.md"),
		pub(hostA, "/handbook/index.md"),
		rej(hostA, "/notes.md", worker.ReasonNotABundle),
		rej(hostA, "/gone/index.md", worker.ReasonFetchFailed+":http_status"),
		pub(hostB, "/okf/index.md"),
		rej(hostB, "/drafts/index.md", worker.ReasonKeyMismatch),
		pub(hostDocs, "/index.md"),
		pub(hostDocs, "/api/index.md"),
		rej(hostDocs, "/private/index.md", worker.ReasonKeyUnreachable+":http_status"),
	} {
		out[o] = rounds
	}
	return out
}

// domainBundleIDs are the ids of the bundles the pings publish.
func domainBundleIDs() []string {
	var ids []string
	for o := range wantPingOutcomes(1) {
		if o.BundleID != "" {
			ids = append(ids, o.BundleID)
		}
	}
	return ids
}
