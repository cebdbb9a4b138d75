package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// apiProc is an okf-api process built from this package and run on a test
// database, with both listeners on free loopback ports.
type apiProc struct {
	cmd      *exec.Cmd
	api, ops string // base URLs
	apiAddr  string
	exited   chan struct{} // closed when the process has exited
	exitErr  error         // its Wait error, once exited is closed

	mu    sync.Mutex
	lines []map[string]any // JSON log lines written so far
}

const testToken = "test-metrics-token"

// startAPI builds okf-api into a temp dir and runs it. API_ADDR and
// OPS_ADDR name port 0; the "listening" log line says which ports it got.
func startAPI(t *testing.T, env ...string) *apiProc {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "okf-api")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+storetest.NewDatabase(t), "DATABASE_READ_URL=",
		"API_ADDR=127.0.0.1:0", "OPS_ADDR=127.0.0.1:0", "PUBLIC_BASE_URL=https://okf-index.example",
		"METRICS_TOKEN="+testToken, "VARIANT=base")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &apiProc{cmd: cmd, exited: make(chan struct{})}
	listening := make(chan map[string]any, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			p.mu.Lock()
			p.lines = append(p.lines, m)
			p.mu.Unlock()
			if m["msg"] == "listening" {
				listening <- m
			}
		}
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	select {
	case m := <-listening:
		p.apiAddr, _ = m["addr"].(string)
		opsAddr, _ := m["ops_addr"].(string)
		p.api, p.ops = "http://"+p.apiAddr, "http://"+opsAddr
	case <-p.exited:
		t.Fatalf("okf-api exited before listening: %v", p.exitErr)
	case <-time.After(30 * time.Second):
		t.Fatal("okf-api did not start listening")
	}
	return p
}

// logLines returns the JSON log lines written so far.
func (p *apiProc) logLines() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.lines...)
}

// call sends one request and returns the status, headers and body.
func call(t *testing.T, method, url, auth, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const pingBody = `{"host":"docs.example.org","key":"0123456789abcdef","urlList":["https://docs.example.org/okf/index.md"]}`

// The operator listener of the real binary: probes, a scrape that shows the
// traffic by route and the queued job, River UI behind the token; and the
// request log lines carry the request id.
func TestOperatorListener(t *testing.T) {
	p := startAPI(t)
	if s, _, b := call(t, "GET", p.api+"/api/bundles/no-such-bundle", "", ""); s != 404 {
		t.Fatalf("card: %d %s", s, b)
	}
	if s, _, b := call(t, "GET", p.api+"/no/such/page", "", ""); s != 404 {
		t.Fatalf("unknown path: %d %s", s, b)
	}
	s, h, b := call(t, "POST", p.api+"/api/ping", "", pingBody)
	if s != http.StatusAccepted {
		t.Fatalf("ping: %d %s", s, b)
	}
	pingID := h.Get("X-Request-Id")

	for _, path := range []string{ops.LivePath, ops.ReadyPath} {
		if s, _, b := call(t, "GET", p.ops+path, "", ""); s != 200 {
			t.Errorf("%s: %d %s", path, s, b)
		}
	}
	_, _, metrics := call(t, "GET", p.ops+ops.MetricsPath, "", "")
	for _, want := range []string{
		`okf_http_requests_total{method="GET",route="/api/bundles/:id",status="404"} 1`,
		`okf_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`okf_http_requests_total{method="POST",route="/api/ping",status="202"} 1`,
		`okf_http_request_duration_seconds_count{method="POST",route="/api/ping",status="202"} 1`,
		`okf_river_jobs{kind="verify_ping",state="available"} 1`,
		`okf_pings{estado="pendente"} 1`,
		`okf_db_pool_total_conns{pool="read"}`,
		"okf_db_stats_up 1",
		"go_goroutines",
		"process_cpu_seconds_total",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
	if strings.Contains(metrics, "no-such") {
		t.Error("a URL became a label value")
	}

	// River UI: closed without the token, open with it as Bearer or as
	// the Basic password, and its API lists the queued job.
	if s, h, _ := call(t, "GET", p.ops+ops.RiverUIPath, "", ""); s != 401 || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Basic") {
		t.Errorf("river ui without token: %d %v", s, h)
	}
	if s, _, _ := call(t, "GET", p.ops+ops.RiverUIPath, "Bearer wrong", ""); s != 401 {
		t.Errorf("river ui with a wrong token: %d", s)
	}
	req, _ := http.NewRequest("GET", p.ops+ops.RiverUIPath, nil)
	req.SetBasicAuth("operator", testToken)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("river ui page with Basic auth: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	if s, _, b := call(t, "GET", p.ops+ops.RiverUIPath+"api/jobs?state=available", "Bearer "+testToken, ""); s != 200 || !strings.Contains(b, `"verify_ping"`) {
		t.Errorf("river ui jobs API: %d %.300s", s, b)
	}

	found := false
	for _, l := range p.logLines() {
		if l["msg"] == "request" && l["route"] == "/api/ping" {
			found = l["request_id"] == pingID && pingID != ""
		}
	}
	if !found {
		t.Errorf("no request log line with request_id %q", pingID)
	}
}

// On SIGTERM the API stops accepting connections, finishes the request in
// flight (a ping whose body is still arriving) with its normal answer, and
// exits 0.
func TestGracefulShutdown(t *testing.T) {
	p := startAPI(t)

	// With Expect: 100-continue the client sends the body only once the
	// handler starts reading it, so the first write returning means the
	// request is in the handler.
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", p.api+"/api/ping", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Expect", "100-continue")
	req.ContentLength = int64(len(pingBody))
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
	type result struct {
		status int
		body   string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := client.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- result{status: resp.StatusCode, body: string(b)}
	}()
	half := len(pingBody) / 2
	if _, err := io.WriteString(pw, pingBody[:half]); err != nil {
		t.Fatal(err)
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The listener closes at once: new connections are refused while the
	// request is still in flight.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", p.apiAddr, 3*time.Second)
		if errors.Is(err, syscall.ECONNREFUSED) {
			break
		}
		// Until the signal is handled dials connect; one that races the
		// listener's close may be reset or dropped. Try again.
		if c != nil {
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API still takes connections after SIGTERM (last dial: %v)", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case r := <-done:
		t.Fatalf("the request ended before its body was sent: %+v", r)
	case <-p.exited:
		t.Fatalf("the process exited with a request in flight: %v", p.exitErr)
	default:
	}

	if _, err := io.WriteString(pw, pingBody[half:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	select {
	case r := <-done:
		if r.err != nil || r.status != http.StatusAccepted {
			t.Fatalf("in-flight ping: %d %s %v", r.status, r.body, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the in-flight request")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case <-p.exited:
		if p.exitErr != nil {
			t.Fatalf("exit: %v", p.exitErr)
		}
	case <-ctx.Done():
		t.Fatal("okf-api did not exit after draining")
	}
	// The ping was answered during the drain: its request line comes after
	// the shutdown began and before the process stopped.
	var msgs []string
	for _, l := range p.logLines() {
		msg, _ := l["msg"].(string)
		if msg == "request" {
			msg = "request " + l["route"].(string)
		}
		msgs = append(msgs, msg)
	}
	if got := strings.Join(msgs, ","); !strings.Contains(got, "shutting down: draining requests in flight,request /api/ping") ||
		!strings.HasSuffix(got, ",stopped") {
		t.Errorf("log messages: %s", got)
	}
}

// Without METRICS_TOKEN River UI is closed to everyone (503), and the rest
// of the operator listener serves as usual.
func TestRiverUIWithoutToken(t *testing.T) {
	p := startAPI(t, "METRICS_TOKEN=")
	if s, _, b := call(t, "GET", p.ops+ops.RiverUIPath, "Bearer "+testToken, ""); s != http.StatusServiceUnavailable {
		t.Errorf("river ui: %d %s", s, b)
	}
	if s, _, _ := call(t, "GET", p.ops+ops.ReadyPath, "", ""); s != 200 {
		t.Errorf("readyz: %d", s)
	}
}

// With SHUTDOWN_DELAY, SIGTERM first makes readiness fail while the API
// still answers, so a load balancer drains it before its listener closes;
// then the process drains and exits 0.
func TestShutdownDelay(t *testing.T) {
	p := startAPI(t, "SHUTDOWN_DELAY=2s")
	if s, _, _ := call(t, "GET", p.ops+"/readyz", "", ""); s != 200 {
		t.Fatalf("readyz before SIGTERM: %d", s)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Second)
	for {
		s, _, body := call(t, "GET", p.ops+"/readyz", "", "")
		if s == http.StatusServiceUnavailable && strings.Contains(body, "shutting down") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz after SIGTERM: %d %s, want 503 at once", s, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s, _, _ := call(t, "GET", p.api+"/api/health", "", ""); s != 200 {
		t.Errorf("during the delay the API answered %d, want 200", s)
	}
	select {
	case <-p.exited:
		if p.exitErr != nil {
			t.Fatalf("exit: %v", p.exitErr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("okf-api did not exit")
	}
}

// A request Go's HTTP server refuses before any handler (a path whose
// percent escape is not two hex digits) answers the API's JSON error from
// the real binary, not Go's plain text.
func TestMalformedRequestAnswersJSON(t *testing.T) {
	p := startAPI(t)
	c, err := net.DialTimeout("tcp", p.apiAddr, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /api/bundles/%zz HTTP/1.1\r\nHost: okf-index.example\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Error, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 400 ||
		body.Error != "invalid_request" || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s %+v %v", resp.StatusCode, resp.Header.Get("Content-Type"), body, err)
	}
}
