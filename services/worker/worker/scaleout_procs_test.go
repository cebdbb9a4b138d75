package worker_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// serviceBinaries are okf-api and okf-worker built for a test, without the
// race detector so that they run at production speed beside the -race
// tests.
type serviceBinaries struct{ api, worker string }

// buildServices builds ./services/api and ./services/worker into a
// temporary directory, both at once.
func buildServices(t *testing.T) serviceBinaries {
	t.Helper()
	dir := t.TempDir()
	b := serviceBinaries{api: filepath.Join(dir, "okf-api"), worker: filepath.Join(dir, "okf-worker")}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, job := range []struct{ out, pkg string }{{b.api, "../../api"}, {b.worker, ".."}} {
		wg.Go(func() {
			if out, err := exec.Command("go", "build", "-o", job.out, job.pkg).CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("go build %s: %v\n%s", job.pkg, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// freeAddrs returns n distinct loopback addresses free a moment ago.
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		out = append(out, ln.Addr().String())
	}
	return out
}

// serviceProc is a named okf-api or okf-worker process.
type serviceProc struct {
	name string
	*workerProc
}

// logTail is the last n lines the process wrote (JSON log lines).
func (p serviceProc) logTail(n int) string {
	lines := strings.Split(strings.TrimRight(p.out.String(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// errorLines are the process's log lines at level ERROR.
func (p serviceProc) errorLines() []string {
	var out []string
	for _, line := range strings.Split(p.out.String(), "\n") {
		var rec struct{ Level string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Level == "ERROR" {
			out = append(out, line)
		}
	}
	return out
}

// requestLog records the requests of a run's streams: how many went out
// and every one that did not get its expected status.
type requestLog struct {
	client *http.Client
	mu     sync.Mutex
	n      int
	bad    []string
}

func newRequestLog() *requestLog {
	return &requestLog{client: &http.Client{Timeout: 30 * time.Second}}
}

// do sends one request and records it; it returns the body of an answer
// with the expected status, else nil.
func (l *requestLog) do(method, url, body string, want int) []byte {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err == nil {
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		var resp *http.Response
		if resp, err = l.client.Do(req); err == nil {
			var b []byte
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode != want {
				err = fmt.Errorf("status %d, want %d: %s", resp.StatusCode, want, bytes.TrimSpace(b))
			}
			if err == nil {
				l.record(nil)
				return b
			}
		}
	}
	l.record(fmt.Errorf("%s %s: %w", method, url, err))
	return nil
}

func (l *requestLog) record(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if err != nil {
		l.bad = append(l.bad, err.Error())
	}
}

// report fails t with the requests that did not get their status.
func (l *requestLog) report(t *testing.T, run string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bad) > 0 {
		t.Errorf("%s: %d of %d requests failed, the first:\n%s", run, len(l.bad), l.n,
			strings.Join(l.bad[:min(10, len(l.bad))], "\n"))
	}
}

// readStep is one GET of the read stream; card asks for the card of the
// newest bundle id a search answered with.
type readStep struct {
	path   string
	status int
	card   bool
}

var readSteps = []readStep{
	{path: "/api/health", status: http.StatusOK},
	{path: "/api/bundles?q=guide", status: http.StatusOK},
	{card: true, status: http.StatusOK},
	{path: "/api/bundles?origin=domain&sort=name", status: http.StatusOK},
	{card: true, status: http.StatusOK},
	{path: "/api/bundles?sort=stars&limit=5", status: http.StatusOK},
	{path: "/api/bundles?q=okf&sort=relevance&offset=24", status: http.StatusOK},
	{path: "/api/stats", status: http.StatusOK},
	{path: "/api/ping/status?host=" + hostA, status: http.StatusOK},
	{path: "/api/bundles/no-such-bundle-0000", status: http.StatusNotFound},
	{path: "/api/bundles?limit=0", status: http.StatusBadRequest},
	{path: "/api/ping/status?host=127.0.0.1", status: http.StatusBadRequest},
}

// streamReads sends the read steps in turn from offset, alternating
// between the APIs, until stop is closed. The card step asks for the first
// id of the last search that found any: a bundle a search found never goes
// away in these runs.
func (l *requestLog) streamReads(apis []string, offset int, stop <-chan struct{}) {
	var id string
	for i := offset; ; i++ {
		select {
		case <-stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
		base, step := apis[i%len(apis)], readSteps[i%len(readSteps)]
		if step.card {
			if id == "" {
				continue
			}
			l.do(http.MethodGet, base+"/api/bundles/"+id, "", step.status)
			continue
		}
		body := l.do(http.MethodGet, base+step.path, "", step.status)
		var page struct{ Items []struct{ ID string } }
		if strings.HasPrefix(step.path, "/api/bundles?") && json.Unmarshal(body, &page) == nil && len(page.Items) > 0 {
			id = page.Items[0].ID
		}
	}
}

// streamPings sends rounds of pingRound, alternating between the APIs,
// until more(round) says to stop, and returns the number of rounds sent.
func (l *requestLog) streamPings(apis []string, more func(round int) bool) int {
	i, round := 0, 0
	for ; round < maxPingRounds && more(round); round++ {
		for _, p := range pingRound {
			l.do(http.MethodPost, apis[i%len(apis)]+"/api/ping", p.body, p.status)
			i++
			time.Sleep(10 * time.Millisecond)
		}
	}
	return round
}
