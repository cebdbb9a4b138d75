package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// LimitError is returned when GitHub kept answering with a rate limit after
// the client's retries; Wait is how long GitHub last asked to wait. The sweep
// snoozes its job for Wait instead of failing it.
type LimitError struct {
	Wait time.Duration
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("github: rate limited; retry in %s", e.Wait)
}

// gqlError is one entry of a GraphQL response's "errors", with the fields
// shurcooL/graphql drops (type and path).
type gqlError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Path    []any  `json:"path"`
}

// alias is the first element of the error's path: the alias that failed.
func (e gqlError) alias() string {
	if len(e.Path) == 0 {
		return ""
	}
	s, _ := e.Path[0].(string)
	return s
}

// collector receives the errors of the GraphQL response of one call.
type collector struct{ errs []gqlError }

type collectorKey struct{}

// withCollector returns a context whose GraphQL response errors are kept in c.
func withCollector(ctx context.Context, c *collector) context.Context {
	return context.WithValue(ctx, collectorKey{}, c)
}

// transport authenticates requests, waits out rate limits and keeps the
// typed GraphQL errors for the caller. It retries a request at most
// maxRetries times, and gives up at once (LimitError) on a wait longer than
// maxWait.
type transport struct {
	base       http.RoundTripper
	token      string
	clock      Clock
	log        *slog.Logger
	maxRetries int
	maxWait    time.Duration
}

// RoundTrip sends req, retrying while GitHub answers with a limit.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		if t.token != "" {
			r.Header.Set("Authorization", "bearer "+t.token)
		}
		r.Header.Set("User-Agent", "okf-index-sweep")
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		wait, limited := limitWait(resp, data, t.clock.Now())
		var errs []gqlError
		if !limited && resp.StatusCode == http.StatusOK {
			errs = graphQLErrors(data)
			for _, e := range errs {
				if e.Type == "RATE_LIMITED" {
					wait, limited = resetWait(resp.Header, t.clock.Now(), time.Minute), true
				}
			}
		}
		if limited {
			if attempt >= t.maxRetries || wait > t.maxWait {
				return nil, &LimitError{Wait: wait}
			}
			t.log.Info("github: rate limited; waiting", "status", resp.StatusCode, "wait", wait, "attempt", attempt+1)
			if err := t.clock.Sleep(ctx, wait); err != nil {
				return nil, err
			}
			continue
		}
		if resp.StatusCode >= 500 && attempt < t.maxRetries {
			backoff := time.Duration(1<<min(attempt, 6)) * time.Second
			t.log.Warn("github: server error; retrying", "status", resp.StatusCode, "wait", backoff)
			if err := t.clock.Sleep(ctx, backoff); err != nil {
				return nil, err
			}
			continue
		}
		if c, ok := ctx.Value(collectorKey{}).(*collector); ok {
			c.errs = errs
		}
		resp.Body = io.NopCloser(bytes.NewReader(data))
		resp.ContentLength = int64(len(data))
		return resp, nil
	}
}

// limitWait says whether resp is a rate-limit answer and how long to wait:
// 403 or 429 with Retry-After, with X-RateLimit-Remaining 0 (until
// X-RateLimit-Reset), or whose message names a secondary rate limit.
func limitWait(resp *http.Response, body []byte, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 {
			return time.Duration(n) * time.Second, true
		}
		if at, err := http.ParseTime(s); err == nil {
			return max(at.Sub(now), time.Second), true
		}
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		return resetWait(resp.Header, now, time.Minute), true
	}
	if resp.StatusCode == http.StatusTooManyRequests ||
		bytes.Contains(bytes.ToLower(body), []byte("rate limit")) {
		return time.Minute, true
	}
	return 0, false
}

// resetWait is the time until X-RateLimit-Reset, or def when absent.
func resetWait(h http.Header, now time.Time, def time.Duration) time.Duration {
	n, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil {
		return def
	}
	return max(time.Unix(n, 0).Sub(now)+time.Second, time.Second)
}

// graphQLErrors reads the typed "errors" of a GraphQL response body; nil
// when the body is not such a response.
func graphQLErrors(body []byte) []gqlError {
	var out struct {
		Errors []gqlError `json:"errors"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil
	}
	return out.Errors
}
