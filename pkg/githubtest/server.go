package githubtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	graphql "github.com/graph-gophers/graphql-go"
)

// Options configures a Server. The zero value is usable.
type Options struct {
	// Token, when set, is the only bearer token accepted; otherwise any
	// non-empty token is.
	Token string
	// Budget is the GraphQL points per hour (default 5000, GitHub's figure).
	Budget int
	// CodeSearchPerMinute is the REST code-search limit (default 10).
	CodeSearchPerMinute int
	// Now replaces the clock (default time.Now).
	Now func() time.Time
	// RateLimitedType is the error "type" of an exhausted GraphQL budget:
	// "RATE_LIMITED" by default (long-standing, documented); GitHub has
	// also been seen answering "RATE_LIMIT" since early 2026, so clients
	// should accept both; set it to test that.
	RateLimitedType string
	// MaxConcurrent, when > 0, answers requests beyond that many in flight
	// with the secondary-limit 403 (GitHub allows about 100).
	MaxConcurrent int
}

// Server is a local GitHub: GraphQL at URL()+"/graphql", REST at RESTURL().
// All methods are safe for concurrent use.
type Server struct {
	opts   Options
	schema *graphql.Schema
	http   *httptest.Server

	mu     sync.RWMutex
	repos  map[string]*repoSnap // repoKey → snapshot
	nextID int64

	limMu    sync.Mutex
	gqlLimit budget
	codeLim  budget
	fail     []failure
	log      []Request
	inflight atomic.Int64
}

type failure struct {
	status     int
	retryAfter time.Duration
}

// New starts a Server with no repositories on a loopback port. With a
// non-nil t the server is closed by t.Cleanup.
func New(t testing.TB, opts Options) *Server {
	if opts.Budget == 0 {
		opts.Budget = 5000
	}
	if opts.CodeSearchPerMinute == 0 {
		opts.CodeSearchPerMinute = 10
	}
	if opts.RateLimitedType == "" {
		opts.RateLimitedType = "RATE_LIMITED"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, repos: map[string]*repoSnap{}, nextID: 100000}
	s.schema = mustSchema(s)
	now := opts.Now()
	s.gqlLimit = budget{limit: opts.Budget, remaining: opts.Budget, window: time.Hour, resetAt: now.Add(time.Hour)}
	s.codeLim = budget{limit: opts.CodeSearchPerMinute, remaining: opts.CodeSearchPerMinute, window: time.Minute, resetAt: now.Add(time.Minute)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /graphql", s.serveGraphQL)
	mux.HandleFunc("POST /api/graphql", s.serveGraphQL) // GHES layout
	mux.HandleFunc("GET /search/code", s.serveCodeSearch)
	mux.HandleFunc("GET /rate_limit", s.serveRESTRateLimit)
	mux.HandleFunc("GET /repos/{owner}/{repo}/contents/{path...}", s.serveContents)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{
			"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"})
	})
	s.http = httptest.NewServer(s.middleware(mux))
	if t != nil {
		t.Cleanup(s.Close)
	}
	return s
}

// URL is the server's base URL; the GraphQL endpoint is URL()+"/graphql".
func (s *Server) URL() string { return s.http.URL }

// GraphQLURL is URL()+"/graphql", ready for githubv4.NewEnterpriseClient.
func (s *Server) GraphQLURL() string { return s.http.URL + "/graphql" }

// RESTURL is the REST v3 base (code search at RESTURL()+"/search/code").
func (s *Server) RESTURL() string { return s.http.URL }

// Client is an *http.Client for this server (no auth header added).
func (s *Server) Client() *http.Client { return s.http.Client() }

// Close stops the server.
func (s *Server) Close() { s.http.Close() }

// FailNext makes the next n requests (GraphQL or REST, after auth) fail with
// GitHub's secondary-rate-limit answer: the given status (403 or 429), a
// Retry-After header of retryAfter (whole seconds, at least 1) and
// {"message":"You have exceeded a secondary rate limit...","documentation_url":...}.
func (s *Server) FailNext(n, status int, retryAfter time.Duration) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	for range n {
		s.fail = append(s.fail, failure{status: status, retryAfter: retryAfter})
	}
}

// middleware authenticates, records, and injects secondary-limit failures.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		entry, r := s.beginRequest(r)
		defer func() { s.endRequest(entry, rec.status) }()
		if !s.authorized(r) {
			doc := "https://docs.github.com/rest"
			if strings.HasSuffix(r.URL.Path, "graphql") {
				doc = "https://docs.github.com/graphql"
			}
			msg := "Bad credentials"
			if r.Header.Get("Authorization") == "" {
				msg = "Requires authentication"
				if doc == "https://docs.github.com/graphql" {
					msg = "This endpoint requires you to be authenticated."
				}
			}
			writeJSON(rec, http.StatusUnauthorized, map[string]string{
				"message": msg, "documentation_url": doc, "status": "401"})
			return
		}
		n := s.inflight.Add(1)
		defer s.inflight.Add(-1)
		f, ok := s.takeFailure()
		if !ok && s.opts.MaxConcurrent > 0 && n > int64(s.opts.MaxConcurrent) {
			f, ok = failure{status: http.StatusForbidden, retryAfter: time.Second}, true
		}
		if ok {
			secs := int((f.retryAfter + time.Second - 1) / time.Second)
			rec.Header().Set("Retry-After", fmt.Sprint(max(secs, 1)))
			writeJSON(rec, f.status, map[string]string{
				"documentation_url": "https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#secondary-rate-limits",
				"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. " +
					"If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
			})
			return
		}
		next.ServeHTTP(rec, r)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || tok == "" {
		return false
	}
	switch strings.ToLower(scheme) {
	case "bearer", "token":
	default:
		return false
	}
	return s.opts.Token == "" || tok == s.opts.Token
}

func (s *Server) takeFailure() (failure, bool) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	if len(s.fail) == 0 {
		return failure{}, false
	}
	f := s.fail[0]
	s.fail = s.fail[1:]
	return f, true
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}
