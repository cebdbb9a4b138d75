package githubtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shurcooL/githubv4"
)

func TestRateLimitCountdown(t *testing.T) {
	s := corpus(t)
	q := `{ rateLimit { cost limit remaining used resetAt nodeCount }
  search(query: "okf", type: REPOSITORY, first: 100) { nodes { ... on Repository { repositoryTopics(first: 10) { totalCount } } } } }`
	type rl struct {
		Cost, Limit, Remaining, Used, NodeCount int
		ResetAt                                 time.Time
	}
	var prev rl
	for i := range 3 {
		out, resp := post(t, s, q, nil)
		var cur rl
		if err := json.Unmarshal(out.Data["rateLimit"], &cur); err != nil {
			t.Fatalf("%v %+v", err, out.Errors)
		}
		// search 1 request + 100 topic requests = 101 → cost 1; nodes 100 + 100*10.
		if cur.Cost != 1 || cur.NodeCount != 1100 || cur.Limit != 5000 || cur.Remaining != 4999-i || cur.Used != i+1 {
			t.Fatalf("call %d: %+v", i, cur)
		}
		if d := time.Until(cur.ResetAt); d <= 59*time.Minute || d > time.Hour {
			t.Fatalf("resetAt %v", cur.ResetAt)
		}
		if resp.Header.Get("X-RateLimit-Remaining") != "" && i > 0 && cur.Remaining >= prev.Remaining {
			t.Fatal("remaining did not decrease")
		}
		prev = cur
	}
	if cost, nodes := QueryCost(`query($n: Int!) { a: search(query: "x", type: REPOSITORY, first: $n) { nodes { ... on Repository { repositoryTopics(first: 100) { totalCount } } } } }`,
		map[string]any{"n": float64(100)}); cost != 1 || nodes != 10100 {
		t.Fatalf("cost %d nodes %d", cost, nodes)
	}
	// Exhausted budget: GitHub answers 200 with a RATE_LIMITED error.
	reset := time.Now().Add(10 * time.Minute)
	s.SetRateLimit(0, reset)
	out, resp := post(t, s, `{ rateLimit { remaining } }`, nil)
	if resp.StatusCode != 200 || len(out.Errors) != 1 || out.Errors[0].Type != "RATE_LIMITED" ||
		resp.Header.Get("X-RateLimit-Remaining") != "0" || resp.Header.Get("X-RateLimit-Reset") == "" {
		t.Fatalf("status %d out %+v headers %v", resp.StatusCode, out, resp.Header)
	}
	view, _ := get(t, s, "/rate_limit")
	if g := view["resources"].(map[string]any)["graphql"].(map[string]any); g["remaining"] != 0.0 || g["reset"] != float64(reset.Unix()) {
		t.Fatalf("/rate_limit %v", view)
	}
	if st := s.Stats(); st.Points != 3 || st.GraphQLCalls != 4 {
		t.Fatalf("stats %+v", st)
	}
}

func TestSecondaryLimitAndAuth(t *testing.T) {
	s := New(t, Options{})
	s.FailNext(2, http.StatusTooManyRequests, 3*time.Second)
	for range 2 {
		_, resp := post(t, s, `{ rateLimit { remaining } }`, nil)
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
			t.Fatalf("status %d retry-after %q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	s.FailNext(1, http.StatusForbidden, 0)
	body, resp := get(t, s, "/search/code?q=x")
	if resp.StatusCode != 403 || !strings.HasPrefix(body["message"].(string), "You have exceeded a secondary rate limit") {
		t.Fatalf("status %d body %v", resp.StatusCode, body)
	}
	if out, resp := post(t, s, `{ rateLimit { remaining } }`, nil); resp.StatusCode != 200 || len(out.Errors) > 0 {
		t.Fatalf("after failures: %d %+v", resp.StatusCode, out.Errors)
	}
	// No token: 401 JSON.
	resp, err := http.Post(s.GraphQLURL(), "application/json", strings.NewReader(`{"query":"{ rateLimit { remaining } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(b), `"message"`) {
		t.Fatalf("no token: %d %s", resp.StatusCode, b)
	}
	// The log saw all of it.
	reqs := s.Requests()
	if len(reqs) != 5 || reqs[0].Query == "" || reqs[2].Path != "/search/code" || reqs[4].Status != 401 {
		t.Fatalf("log %+v", reqs)
	}
}

// TestConcurrentSweeps hammers the server from several goroutines while
// mutating it (meaningful under -race).
func TestConcurrentSweeps(t *testing.T) {
	s := New(t, Options{Budget: 1 << 20})
	names := s.AddSyntheticRepos(200, 1)
	c := v4client(s)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			own, name, _ := strings.Cut(names[i], "/")
			s.SetFile(own, name, "extra.md", []byte("x"))
			s.SetArchived(own, name, i%2 == 0)
		}
	}()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var q struct {
				Repository struct {
					Object struct {
						Tree struct{ Entries []struct{ Name string } } `graphql:"... on Tree"`
					} `graphql:"object(expression: \"HEAD:\")"`
				} `graphql:"repository(owner: $o, name: $n)"`
			}
			var err error
			for _, n := range names[:50] {
				own, name, _ := strings.Cut(n, "/")
				if err = c.Query(context.Background(), &q, map[string]any{"o": githubv4.String(own), "n": githubv4.String(name)}); err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	<-done
}
