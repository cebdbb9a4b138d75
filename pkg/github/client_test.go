package github

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shurcooL/githubv4"
)

// fakeClock advances only when slept on.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept += d
	return ctx.Err()
}

func testClient(t *testing.T, h http.HandlerFunc) (*Client, *fakeClock) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	clk := &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return New(Config{GraphQLURL: srv.URL + "/graphql", Token: "tok", Clock: clk,
		MaxWait: 2 * time.Hour, Logger: slog.New(slog.DiscardHandler)}), clk
}

func TestRESTBase(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.github.com/graphql":  "https://api.github.com",
		"http://127.0.0.1:5000/graphql/":  "http://127.0.0.1:5000",
		"https://ghe.example/api/graphql": "https://ghe.example/api",
	} {
		if got := RESTBase(in); got != want {
			t.Errorf("RESTBase(%q) = %q, want %q", in, got, want)
		}
	}
}

// A batched read sends one aliased repository field per repository with
// variables, keeps the good aliases of a partial answer and reports the
// NOT_FOUND alias as gone.
func TestReadRepositoriesPartial(t *testing.T) {
	var query string
	c, _ := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "bearer tok" {
			t.Errorf("authorization %q", r.Header.Get("Authorization"))
		}
		var in struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		json.NewDecoder(r.Body).Decode(&in)
		query = in.Query
		if in.Variables["o1"] != "gone" || in.Variables["n0"] != "kb" {
			t.Errorf("variables %v", in.Variables)
		}
		io.WriteString(w, `{"data":{"r0":{"owner":{"login":"Acme"},"name":"kb","stargazerCount":3,
			"forkCount":1,"pushedAt":"2025-01-02T03:04:05Z","isArchived":true,"isFork":false,
			"isPrivate":false,"primaryLanguage":{"name":"Go"},"licenseInfo":{"spdxId":"MIT"},
			"defaultBranchRef":{"name":"main","target":{"oid":"abc"}}},"r1":null,
			"rateLimit":{"cost":1,"remaining":4999,"resetAt":"2026-03-01T13:00:00Z"}},
			"errors":[{"type":"NOT_FOUND","path":["r1"],"message":"Could not resolve to a Repository with the name 'gone/x'."}]}`)
	})
	got, err := c.ReadRepositories(context.Background(), []RepoRef{{"acme", "kb"}, {"gone", "x"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"r0: repository(owner:$o0, name:$n0)", "licenseInfo{spdxId}", "defaultBranchRef{name,target{oid}}", "rateLimit{cost,remaining,resetAt}", "$o0:String!"} {
		if !strings.Contains(query, want) {
			t.Errorf("query lacks %q: %s", want, query)
		}
	}
	if len(got) != 2 || got[0].Owner != "Acme" || got[0].Stars != 3 || !got[0].Archived || got[0].License != "MIT" ||
		got[0].Branch != "main" || got[0].HeadOID != "abc" || got[0].PushedAt == nil || got[1].Gone != true {
		t.Fatalf("repositories: %+v", got)
	}
	if u := c.Usage(); u.Calls != 1 || u.Points != 1 {
		t.Fatalf("usage %+v", u)
	}
}

// Any error other than NOT_FOUND fails the call.
func TestQueryOtherErrorFails(t *testing.T) {
	c, _ := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"errors":[{"message":"Field 'nope' doesn't exist on type 'Repository'","type":"undefinedField"}]}`)
	})
	if _, err := c.ReadRepositories(context.Background(), []RepoRef{{"a", "b"}}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v", err)
	}
}

// A secondary limit (403 with Retry-After, then 429) is waited out and
// retried; a low budget makes the next call wait for the reset.
func TestLimitsAreWaitedOut(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	c, clk := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 1:
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"message":"You have exceeded a secondary rate limit."}`)
		case 2:
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			io.WriteString(w, `{"data":{"search":{"repositoryCount":1,"pageInfo":{"endCursor":"c1","hasNextPage":false},
				"nodes":[{"owner":{"login":"o"},"name":"r"}]},
				"rateLimit":{"cost":1,"remaining":3,"resetAt":"2026-03-01T12:40:00Z"}}}`)
		}
	})
	p, err := c.SearchRepositories(context.Background(), "okf", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Repos) != 1 || p.EndCursor != "c1" || p.Total != 1 {
		t.Fatalf("page %+v", p)
	}
	if clk.slept != 90*time.Second {
		t.Fatalf("slept %s, want 30s + 60s", clk.slept)
	}
	// remaining 3 < 100: the next call waits until resetAt (12:40 + 1s).
	if _, err := c.SearchRepositories(context.Background(), "okf", "c1"); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 3, 1, 12, 40, 1, 0, time.UTC); !clk.Now().Equal(want) {
		t.Fatalf("clock %s, want %s", clk.Now(), want)
	}
	// A wait longer than MaxWait is not slept in the call: the caller gets
	// a LimitError to snooze its job.
	c.observe(RateLimit{Remaining: 1, ResetAt: githubv4.DateTime{Time: clk.Now().Add(time.Hour)}})
	c.maxWait = time.Minute
	_, err = c.SearchRepositories(context.Background(), "okf", "c1")
	var le *LimitError
	if !asLimit(err, &le) || le.Wait < 59*time.Minute {
		t.Fatalf("long wait: %v", err)
	}
}

// A limit that never lifts ends in a LimitError after the bounded retries.
func TestLimitErrorAfterRetries(t *testing.T) {
	c, _ := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	_, err := c.SearchRepositories(context.Background(), "okf", "")
	var le *LimitError
	if !asLimit(err, &le) || le.Wait != 5*time.Second {
		t.Fatalf("err = %v", err)
	}
}

// Code searches are paced to CodeSearchInterval.
func TestCodeSearchPaced(t *testing.T) {
	c, clk := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search/code" || r.URL.Query().Get("q") != "okf_version size:0..10" {
			t.Errorf("request %s", r.URL)
		}
		io.WriteString(w, `{"total_count":1,"incomplete_results":false,"items":[{"name":"index.md","path":"okf/index.md","repository":{"name":"r","owner":{"login":"o"}}}]}`)
	})
	for i := 0; i < 3; i++ {
		p, err := c.SearchCode(context.Background(), "okf_version size:0..10", 1)
		if err != nil || len(p.Hits) != 1 || !p.Done || p.Hits[0].Path != "okf/index.md" {
			t.Fatalf("page %+v %v", p, err)
		}
	}
	if clk.slept != 12*time.Second {
		t.Fatalf("slept %s, want 12s", clk.slept)
	}
}

func asLimit(err error, le **LimitError) bool { return errors.As(err, le) }

// ReadRaw asks the contents API for the raw file, path segments escaped.
func TestReadRaw(t *testing.T) {
	c, _ := testClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() == "/repos/o/r/contents/x.md" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if r.URL.EscapedPath() != "/repos/o/r/contents/docs/a%20b/index.md" || r.Header.Get("Accept") != "application/vnd.github.raw" {
			t.Errorf("request %s %s", r.URL.EscapedPath(), r.Header.Get("Accept"))
			w.WriteHeader(http.StatusNotFound)
			return
		}
		io.WriteString(w, "---\nokf_version: \"0.2\"\n---\n")
	})
	b, err := c.ReadRaw(context.Background(), FileRef{Repo: RepoRef{"o", "r"}, Path: "docs/a b/index.md"})
	if err != nil || !strings.HasPrefix(string(b), "---\nokf_version") {
		t.Fatalf("raw: %q %v", b, err)
	}
	if _, err := c.ReadRaw(context.Background(), FileRef{Repo: RepoRef{"o", "r"}, Path: "x.md"}); err == nil {
		t.Fatal("a 404 read no error")
	}
}
