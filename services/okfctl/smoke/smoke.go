// Package smoke is the smoke suite of okfctl smoke: it calls every public
// route of a deployed OKF Index, of the variant the deployment says it is,
// and checks each answer's status, content type and shape against the
// contract. Every request is marked as test traffic (the X-House-Smoke
// header and the house-smoke User-Agent), so nothing it does is counted.
// It writes nothing: a ping is only validated (an empty submission must be
// refused), unless a real one is asked for.
package smoke

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Options configure a run.
type Options struct {
	// BaseURL is the deployment's public base URL.
	BaseURL string
	// Client sends the requests; a client with a 20 s timeout when nil.
	Client *http.Client
	// Version goes in the User-Agent (house-smoke/<Version>).
	Version string
	// Ping, when set, is submitted for real with POST /api/ping.
	Ping *Ping
}

// Ping is a real submission: a bundle root on a host that serves the key.
type Ping struct {
	Host, Key, URL string
}

// Result is the outcome of one check.
type Result struct {
	Name     string // method and path, e.g. "GET /api/stats"
	Err      error  // nil when the check passed
	Duration time.Duration
}

// suite is one run's state: what earlier checks learned.
type suite struct {
	opts    Options
	base    string
	full    bool
	tools   int
	bundle  string // api URL of a live bundle, when the index has one
	results []Result
}

// Run runs every check in order and returns their results. It returns an
// error only when the run itself cannot start; failed checks are results.
func Run(ctx context.Context, opts Options) ([]Result, error) {
	base := strings.TrimRight(opts.BaseURL, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("smoke: base URL %q must be an absolute http(s) URL", opts.BaseURL)
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 20 * time.Second}
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &suite{opts: opts, base: base}
	for _, c := range s.checks() {
		if c.full && !s.full {
			continue
		}
		start := time.Now()
		err := c.run(ctx, s)
		s.results = append(s.results, Result{Name: c.name, Err: err, Duration: time.Since(start)})
		if ctx.Err() != nil {
			return s.results, ctx.Err()
		}
	}
	return s.results, nil
}

// Failed counts the failed results.
func Failed(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Err != nil {
			n++
		}
	}
	return n
}

// response is one answer, read whole (up to 8 MiB).
type response struct {
	status int
	header http.Header
	body   []byte
}

// call sends one marked request to a path of the deployment (or to an
// absolute URL under it); the answer must carry Access-Control-Allow-Origin: *.
func (s *suite) call(ctx context.Context, method, path string, body io.Reader, header map[string]string) (response, error) {
	return s.send(ctx, method, path, body, header, true)
}

// callSession is call for a session route of the full variant, whose
// answer must carry no CORS header.
func (s *suite) callSession(ctx context.Context, method, path string, body io.Reader, header map[string]string) (response, error) {
	return s.send(ctx, method, path, body, header, false)
}

func (s *suite) send(ctx context.Context, method, path string, body io.Reader, header map[string]string, cors bool) (response, error) {
	url := path
	if !strings.HasPrefix(path, "http") {
		url = s.base + path
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("X-House-Smoke", "1")
	req.Header.Set("User-Agent", "house-smoke/"+s.opts.Version)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return response{}, fmt.Errorf("reading the answer: %w", err)
	}
	if got, want := resp.Header.Get("Access-Control-Allow-Origin"), map[bool]string{true: "*"}[cors]; got != want {
		return response{}, fmt.Errorf("Access-Control-Allow-Origin is %q, want %q", got, want)
	}
	return response{resp.StatusCode, resp.Header, b}, nil
}
