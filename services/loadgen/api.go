package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// apiProcess is the real okf-api binary, a child of the harness, so that
// its RSS is its own.
type apiProcess struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:port
	ops    string // its operator listener, http://127.0.0.1:port
	stderr *bytes.Buffer
	done   chan error
}

// startAPI starts bin against dbURL on free loopback ports and waits until
// it answers /api/health. Pings are allowed far above the harness's rate
// (PING_RATE_PER_MINUTE): every request comes from one loopback address.
// The child's log (a line a request) goes to logFile when one is named,
// else nowhere: the harness reads the answers themselves.
func startAPI(ctx context.Context, bin, dbURL, logFile string, env ...string) (*apiProcess, error) {
	apiAddr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	opsAddr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	p := &apiProcess{base: "http://" + apiAddr, ops: "http://" + opsAddr, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin)
	p.cmd.Env = []string{
		"DATABASE_URL=" + dbURL,
		"API_ADDR=" + apiAddr,
		"OPS_ADDR=" + opsAddr,
		"PUBLIC_BASE_URL=" + p.base,
		"PING_RATE_PER_MINUTE=100000", // the most it takes: 1,666 a second,
	}
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stderr = p.stderr
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			return nil, err
		}
		defer f.Close() // the child holds its own descriptor
		p.cmd.Stdout = f
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s (make build makes it): %w", bin, err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.base + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case err := <-p.done:
			return nil, fmt.Errorf("okf-api exited: %v: %s", err, tail(p.stderr.String(), 2000))
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("okf-api did not answer /api/health within 30 s: %s", tail(p.stderr.String(), 2000))
		}
	}
}

// stop sends SIGTERM and waits for the drain; SIGKILL after 25 s.
func (p *apiProcess) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(25 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// memory is what /proc/<pid>/status says of a process's resident memory,
// in bytes: VmRSS now and VmHWM, the peak since it started.
type memory struct{ rss, hwm int64 }

// readMemory reads a process's memory figures from /proc.
func readMemory(pid int) (memory, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memory{}, err
	}
	return parseStatus(b)
}

// parseStatus reads VmRSS and VmHWM (kB) from a /proc/<pid>/status.
func parseStatus(b []byte) (memory, error) {
	var m memory
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return memory{}, fmt.Errorf("status: %s: %q", name, rest)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("status: %s: %w", name, err)
		}
		if name == "VmRSS" {
			m.rss = kb << 10
		} else {
			m.hwm = kb << 10
		}
		found++
	}
	if found != 2 {
		return memory{}, errors.New("status: no VmRSS and VmHWM")
	}
	return m, nil
}

// rssSampler reads a process's VmRSS every interval and keeps the largest,
// until stopped.
type rssSampler struct {
	pid  int
	stop chan struct{}
	wg   sync.WaitGroup
	peak int64
}

func sampleRSS(pid int, every time.Duration) *rssSampler {
	s := &rssSampler{pid: pid, stop: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if m, err := readMemory(pid); err == nil {
				s.peak = max(s.peak, m.rss)
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop ends the sampling and returns the largest VmRSS seen.
func (s *rssSampler) Stop() int64 {
	close(s.stop)
	s.wg.Wait()
	return s.peak
}

// cacheLookups are the API's page cache counters (okf_page_cache_lookups_total
// by cache and result) as its operator listener's /metrics says them.
type cacheLookups map[string]*lookups

type lookups struct{ hit, miss, unchecked float64 }

// pageCache reads the page cache counters of the API.
func (p *apiProcess) pageCache() (cacheLookups, error) {
	resp, err := http.Get(p.ops + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return parseCacheLookups(resp.Body)
}

// parseCacheLookups reads the lookups of each cache from a Prometheus text
// exposition.
func parseCacheLookups(r io.Reader) (cacheLookups, error) {
	c := cacheLookups{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		series, value, ok := strings.Cut(sc.Text(), " ")
		labels, found := strings.CutPrefix(series, "okf_page_cache_lookups_total{")
		if !ok || !found {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("metrics: %q: %w", sc.Text(), err)
		}
		var cache, result string
		for _, l := range strings.Split(strings.TrimSuffix(labels, "}"), ",") {
			k, val, _ := strings.Cut(l, "=")
			switch k {
			case "cache":
				cache = strings.Trim(val, `"`)
			case "result":
				result = strings.Trim(val, `"`)
			}
		}
		if c[cache] == nil {
			c[cache] = &lookups{}
		}
		switch result {
		case "hit":
			c[cache].hit = v
		case "miss":
			c[cache].miss = v
		case "unchecked":
			c[cache].unchecked = v
		}
	}
	return c, sc.Err()
}

// cacheLine says what share of the run's searches and cards the page
// caches answered.
func cacheLine(before, after cacheLookups) string {
	var parts []string
	for _, name := range []string{"search", "card"} {
		a, b := after[name], before[name]
		if a == nil {
			continue
		}
		if b == nil {
			b = &lookups{}
		}
		hit, miss, unchecked := a.hit-b.hit, a.miss-b.miss, a.unchecked-b.unchecked
		if total := hit + miss + unchecked; total > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f of %.0f answered from it (%.1f%%), %.0f computed, %.0f unchecked",
				name, hit, total, 100*hit/total, miss, unchecked))
		}
	}
	if len(parts) == 0 {
		return "page cache: no lookups"
	}
	return "page cache: " + strings.Join(parts, "; ")
}
