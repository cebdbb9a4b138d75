package github

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shurcooL/githubv4"
)

// DefaultGraphQLURL is GitHub's GraphQL endpoint.
const DefaultGraphQLURL = "https://api.github.com/graphql"

// Config configures a Client.
type Config struct {
	GraphQLURL string // GITHUB_GRAPHQL_URL; DefaultGraphQLURL when empty
	// RESTURL is the REST API base; RESTBase(GraphQLURL) when empty.
	RESTURL    string
	Token      string       // GITHUB_TOKEN
	HTTPClient *http.Client // its Transport is wrapped; http.DefaultTransport when nil
	Clock      Clock        // RealClock when nil
	Logger     *slog.Logger // slog.Default() when nil
	// MinRemaining is the budget under which the client waits for the
	// reset before its next GraphQL call; 100 points when 0.
	MinRemaining int
	// MaxRetries bounds the retries of one request on rate limits and server
	// errors; 6 when 0.
	MaxRetries int
	// MaxWait is the longest the client sleeps in one call for a limit;
	// a longer wait returns a *LimitError at once, so that the job is
	// snoozed rather than holding a worker. 1 minute when 0.
	MaxWait time.Duration
	// CodeSearchInterval is the least time between two code searches; 6s
	// (10 requests per minute, GitHub's code search limit) when 0.
	CodeSearchInterval time.Duration
}

// RateLimit is GitHub's answer to rateLimit { cost remaining resetAt }.
type RateLimit struct {
	Cost      int               `graphql:"cost"`
	Remaining int               `graphql:"remaining"`
	ResetAt   githubv4.DateTime `graphql:"resetAt"`
}

// Client talks to GitHub for the sweep. It is safe for concurrent use.
type Client struct {
	gql          *githubv4.Client
	http         *http.Client
	rest         string
	clock        Clock
	log          *slog.Logger
	minRemaining int
	maxWait      time.Duration
	codeInterval time.Duration

	mu         sync.Mutex
	rate       *RateLimit // last seen; nil before the first call
	points     int        // GraphQL points spent, as GitHub reported them
	calls      int        // GraphQL calls made
	nextSearch time.Time  // earliest time of the next code search
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	if cfg.GraphQLURL == "" {
		cfg.GraphQLURL = DefaultGraphQLURL
	}
	if cfg.RESTURL == "" {
		cfg.RESTURL = RESTBase(cfg.GraphQLURL)
	}
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MinRemaining == 0 {
		cfg.MinRemaining = 100
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 6
	}
	if cfg.MaxWait == 0 {
		cfg.MaxWait = time.Minute
	}
	if cfg.CodeSearchInterval == 0 {
		cfg.CodeSearchInterval = 6 * time.Second
	}
	base := http.DefaultTransport
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
		if hc.Transport != nil {
			base = hc.Transport
		}
	}
	if hc.Timeout == 0 {
		hc.Timeout = 2 * time.Minute
	}
	hc.Transport = &transport{base: base, token: cfg.Token, clock: cfg.Clock, log: cfg.Logger, maxRetries: cfg.MaxRetries, maxWait: cfg.MaxWait}
	return &Client{
		gql:          githubv4.NewEnterpriseClient(cfg.GraphQLURL, &hc),
		http:         &hc,
		rest:         strings.TrimRight(cfg.RESTURL, "/"),
		clock:        cfg.Clock,
		log:          cfg.Logger,
		minRemaining: cfg.MinRemaining,
		maxWait:      cfg.MaxWait,
		codeInterval: cfg.CodeSearchInterval,
	}
}

// RESTBase derives the REST API base from a GraphQL endpoint: the URL
// without its trailing "/graphql" (https://api.github.com/graphql gives
// https://api.github.com; a GitHub Enterprise https://host/api/graphql gives
// https://host/api, whose REST API is at /api/v3: pass RESTURL there).
func RESTBase(graphqlURL string) string {
	return strings.TrimSuffix(strings.TrimRight(graphqlURL, "/"), "/graphql")
}

// Usage is what the client has spent so far.
type Usage struct {
	Calls  int // GraphQL calls
	Points int // GraphQL points, as rateLimit.cost reported them
}

// Usage returns the GraphQL calls and points spent by this client.
func (c *Client) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Usage{Calls: c.calls, Points: c.points}
}

// pace waits for the budget's reset when the last call left it low.
func (c *Client) pace(ctx context.Context) error {
	c.mu.Lock()
	var wait time.Duration
	if c.rate != nil && c.rate.Remaining < c.minRemaining {
		wait = c.rate.ResetAt.Sub(c.clock.Now()) + time.Second
	}
	c.mu.Unlock()
	if wait <= 0 {
		return nil
	}
	if wait > c.maxWait {
		return &LimitError{Wait: wait}
	}
	c.log.Info("github: GraphQL budget low; waiting for reset", "wait", wait)
	if err := c.clock.Sleep(ctx, wait); err != nil {
		return err
	}
	c.mu.Lock()
	c.rate = nil // the budget was reset; the next answer says what is left
	c.mu.Unlock()
	return nil
}

// observe records the rate limit of an answer.
func (c *Client) observe(rl RateLimit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	c.points += rl.Cost
	if !rl.ResetAt.IsZero() {
		r := rl
		c.rate = &r
	}
}

// query runs one GraphQL query, paced. It returns the errors of the answer
// that name an alias as NOT_FOUND, and fails on any other error.
func (c *Client) query(ctx context.Context, what string, q any, vars map[string]any) (notFound map[string]bool, err error) {
	if err := c.pace(ctx); err != nil {
		return nil, err
	}
	col := &collector{}
	err = c.gql.Query(withCollector(ctx, col), q, vars)
	if err == nil {
		return nil, nil
	}
	if len(col.errs) == 0 || err.Error() != col.errs[0].Message {
		return nil, fmt.Errorf("github: %s: %w", what, err)
	}
	notFound = map[string]bool{}
	for _, e := range col.errs {
		if e.Type != "NOT_FOUND" || e.alias() == "" {
			return nil, fmt.Errorf("github: %s: %s (%s)", what, e.Message, e.Type)
		}
		notFound[e.alias()] = true
	}
	return notFound, nil
}
