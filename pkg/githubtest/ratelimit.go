package githubtest

import (
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// budget is a fixed-window allowance (GitHub's primary limits reset at a
// fixed time, not continuously).
type budget struct {
	limit, remaining int
	window           time.Duration
	resetAt          time.Time
}

func (b *budget) roll(now time.Time) {
	if !now.Before(b.resetAt) {
		b.remaining = b.limit
		b.resetAt = now.Add(b.window)
	}
}

func (b *budget) used() int { return b.limit - b.remaining }

// SetRateLimit sets the GraphQL budget's remaining points and reset time (a
// zero resetAt keeps the current one). With remaining 0 every GraphQL call
// is answered RATE_LIMITED until resetAt.
func (s *Server) SetRateLimit(remaining int, resetAt time.Time) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.gqlLimit.remaining = remaining
	if !resetAt.IsZero() {
		s.gqlLimit.resetAt = resetAt
	}
}

// RateLimit reports the GraphQL budget: remaining points and reset time.
func (s *Server) RateLimit() (remaining int, resetAt time.Time) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.gqlLimit.roll(s.opts.Now())
	return s.gqlLimit.remaining, s.gqlLimit.resetAt
}

// SetCodeSearchRate sets the REST code-search limit to n requests per window
// (GitHub: 10 per minute) and starts a fresh window. Tests relax it, e.g.
// SetCodeSearchRate(1000, time.Minute).
func (s *Server) SetCodeSearchRate(n int, window time.Duration) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.codeLim = budget{limit: n, remaining: n, window: window, resetAt: s.opts.Now().Add(window)}
}

// chargeGraphQL takes cost points; ok is false (nothing taken) when the
// budget cannot cover it. dryRun only reports.
func (s *Server) chargeGraphQL(cost int, dryRun bool) (b budget, ok bool) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.gqlLimit.roll(s.opts.Now())
	if s.gqlLimit.remaining <= 0 || (!dryRun && s.gqlLimit.remaining < cost) {
		return s.gqlLimit, false
	}
	if !dryRun {
		s.gqlLimit.remaining -= cost
	}
	return s.gqlLimit, true
}

// takeCodeSearch takes one code-search request from its window.
func (s *Server) takeCodeSearch() (budget, bool) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.codeLim.roll(s.opts.Now())
	if s.codeLim.remaining <= 0 {
		return s.codeLim, false
	}
	s.codeLim.remaining--
	return s.codeLim, true
}

func setLimitHeaders(w http.ResponseWriter, b budget, resource string) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(b.remaining, 0)))
	h.Set("X-RateLimit-Used", strconv.Itoa(b.used()))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(b.resetAt.Unix(), 10))
	h.Set("X-RateLimit-Resource", resource)
}

var (
	stringLit = regexp.MustCompile(`"""(?s:.*?)"""|"(?:[^"\\]|\\.)*"`)
	commentRe = regexp.MustCompile(`#[^\n]*`)
	pageArgRe = regexp.MustCompile(`\b(?:first|last)\s*:\s*(\$?\w+)`)
	tokenRe   = regexp.MustCompile(`[A-Za-z_]\w*|\(|\)|\{|\}`)
)

// QueryCost estimates GitHub's cost of a query before it runs, the way
// GitHub documents it: every connection field (one taking first/last) needs
// one request per parent node; nodeCount sums first/last times the parents'
// first/last; cost = round(requests/100), at least 1. Tree entries and
// aliased repository lookups are not connections, so a batch of 50 aliased
// repositories with their trees costs 1 point, as on GitHub. Named
// fragments are not expanded (the sweep's client inlines them).
func QueryCost(query string, vars map[string]any) (cost, nodes int) {
	q := commentRe.ReplaceAllString(stringLit.ReplaceAllString(query, `""`), "")
	type frame struct{ mult int }
	stack := []frame{{1}}
	requests := 0
	pending := 0 // first/last of the last field seen, 0 = not a connection
	toks := tokenRe.FindAllStringIndex(q, -1)
	for i := 0; i < len(toks); i++ {
		t := q[toks[i][0]:toks[i][1]]
		switch t {
		case "(":
			depth, j := 1, i+1
			for ; j < len(toks) && depth > 0; j++ {
				switch q[toks[j][0]:toks[j][1]] {
				case "(":
					depth++
				case ")":
					depth--
				}
			}
			end := len(q)
			if j-1 < len(toks) {
				end = toks[j-1][1]
			}
			args := q[toks[i][0]:end]
			if m := pageArgRe.FindStringSubmatch(args); m != nil {
				pending = pageValue(m[1], vars)
			}
			i = j - 1
		case "{":
			parent := stack[len(stack)-1].mult
			mult := parent
			if pending > 0 {
				requests += parent
				nodes += parent * pending
				mult = parent * pending
			}
			stack = append(stack, frame{mult})
			pending = 0
		case "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			pending = 0
		default:
			pending = 0
		}
	}
	cost = max(1, int(math.Round(float64(requests)/100)))
	return cost, nodes
}

func pageValue(v string, vars map[string]any) int {
	if name, ok := strings.CutPrefix(v, "$"); ok {
		switch n := vars[name].(type) {
		case float64:
			return int(n)
		case int:
			return n
		}
		return 0
	}
	n, _ := strconv.Atoi(v)
	return n
}

// serveRESTRateLimit answers GET /rate_limit with both budgets.
func (s *Server) serveRESTRateLimit(w http.ResponseWriter, r *http.Request) {
	s.limMu.Lock()
	now := s.opts.Now()
	s.gqlLimit.roll(now)
	s.codeLim.roll(now)
	view := func(b budget) map[string]any {
		return map[string]any{"limit": b.limit, "remaining": b.remaining, "used": b.used(), "reset": b.resetAt.Unix()}
	}
	res := map[string]any{"graphql": view(s.gqlLimit), "code_search": view(s.codeLim)}
	s.limMu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"resources": res, "rate": res["graphql"]})
}
