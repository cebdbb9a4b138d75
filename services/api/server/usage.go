package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/clientreport"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Usage counting (contract 4.4): every request of a public surface answered
// with success (2xx or 3xx) adds one to its day's counter, except test
// traffic and the operations routes themselves. Refusals and misses (4xx,
// 5xx) are not usage, and counting them would let anyone inflate the public
// numbers with made-up names. The counter is in memory and flushed in batches
// (pkg/usage), so counting costs no database write per request.

// smokeHeader and smokeAgent mark test traffic (contract 4.4).
const (
	smokeHeader = "X-House-Smoke"
	smokeAgent  = "house-smoke"
)

// isSmoke reports whether a request is test traffic: the X-House-Smoke
// header, or the User-Agent house-smoke (any version after a slash).
func isSmoke(h http.Header) bool {
	if _, ok := h[http.CanonicalHeaderKey(smokeHeader)]; ok {
		return true
	}
	ua := strings.ToLower(strings.TrimSpace(h.Get("User-Agent")))
	return ua == smokeAgent || strings.HasPrefix(ua, smokeAgent+"/")
}

// countUsage counts a request after it is answered with success, under the
// counter its route's row names.
func (s *Server) countUsage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		req := c.Request()
		status := c.Response().Status
		if err != nil {
			status, _, _ = apierror.Response(err) // the outer middleware writes it
		}
		smoke := isSmoke(req.Header)
		if req.Method == http.MethodOptions || smoke {
			return err
		}
		row, ok := s.byPath.Row(req.Method, c.Path())
		if !ok {
			return err
		}
		if row.Usage != route.NotCounted {
			s.countRequest(status)
		}
		if status >= 400 || req.Method == http.MethodHead {
			return err
		}
		if k, ok := caller.APIKey(c); ok {
			s.usage.Add(account.KeyUsageMetric(k), 1)
		}
		switch row.Usage {
		case route.CountedAsMCP:
			s.usage.Add(usage.MCP, 1)
		case route.CountedAsAPI:
			s.usage.Add(usage.API, 1)
			switch callerOf(req.Header.Get("User-Agent")) {
			case callerAI:
				s.usage.Add(usage.APIAI, 1)
			case callerMachine:
				s.usage.Add(usage.APIMachine, 1)
			}
		case route.CountedAsPage:
			s.usage.Add(usage.Page, 1)
			s.countVisitor(req)
		case route.CountedAsDoc:
			s.usage.Add(usage.Doc, 1)
		}
		return err
	}
}

// countRequest counts an answered request of a counted surface (API,
// page, document, MCP; HEAD included, whatever its status) for the
// projection's reliability (confiabilidade), and apart those answered
// 5xx. The operations routes are left out, as in the usage counters.
func (s *Server) countRequest(status int) {
	s.usage.Add(usage.Requests, 1)
	if status >= 500 {
		s.usage.Add(usage.Requests5xx, 1)
	}
}

// countVisitor counts the request's client as a unique visitor of the day
// (pkg/usage visitors.go says exactly what is counted) when a browser
// sent it; AI agents and other programs are not visitors.
func (s *Server) countVisitor(req *http.Request) {
	ua := req.Header.Get("User-Agent")
	if callerOf(ua) != callerBrowser {
		return
	}
	s.usage.AddVisitor(caller.Client(req.Context()), clientreport.UAFamily(ua))
}

// callerKind is who a request comes from, as far as its User-Agent tells.
type callerKind int

const (
	callerBrowser callerKind = iota // a person's browser
	callerAI                        // an AI agent or AI crawler
	callerMachine                   // any other program
)

// aiAgents are User-Agent tokens of AI agents and AI crawlers, lowercase.
var aiAgents = []string{
	"gptbot", "chatgpt-user", "oai-searchbot", "claudebot", "claude-user", "claude-searchbot", "claude-web",
	"anthropic-ai", "perplexitybot", "perplexity-user", "google-extended", "googleother", "ccbot",
	"bytespider", "amazonbot", "applebot-extended", "cohere-ai", "meta-externalagent", "meta-externalfetcher",
	"mistralai-user", "youbot", "duckassistbot", "ai2bot", "diffbot", "mcp",
}

// callerOf classifies a User-Agent: an AI agent when it names one, a
// browser when it is a Mozilla-style string that does not say bot,
// crawler or spider, and a machine otherwise (curl, SDKs, scripts).
func callerOf(ua string) callerKind {
	ua = strings.ToLower(ua)
	for _, a := range aiAgents {
		if strings.Contains(ua, a) {
			return callerAI
		}
	}
	if strings.HasPrefix(ua, "mozilla/") && !strings.Contains(ua, "bot") &&
		!strings.Contains(ua, "crawler") && !strings.Contains(ua, "spider") {
		return callerBrowser
	}
	return callerMachine
}

// countToolCall counts an MCP tool call, unless it is test traffic (h is
// the call's request headers, nil outside HTTP).
func (s *Server) countToolCall(h http.Header) {
	if !isSmoke(h) {
		s.usage.Add(usage.MCPTool, 1)
	}
}
