package server

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/pages"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The HTML answer of a failed request from a browser, the router's error
// handler.

// pagePrefixes are the paths of the pages for people: a failure there is
// an HTML page whatever the browser accepts.
var pagePrefixes = []string{"/b/", "/o/", "/r/", "/docs"}

// wantsPage reports whether a failed request is a browser's, to be
// answered with an HTML page rather than the API's JSON: a page route, or
// any address outside the API and the documents for machines that a
// browser asked for (Accept names text/html).
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	for _, pre := range []string{"/api/", "/mcp", "/.well-known/", "/okf/", "/assets/", "/openapi.json", "/llms", "/feed.atom", "/opensearch.xml", "/agent.json"} {
		if strings.HasPrefix(p, pre) {
			return false
		}
	}
	if p == "/" || p == "/results" || p == "/stats" {
		return true
	}
	for _, pre := range pagePrefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// handleError answers a failed request: the API's JSON error, or for a
// browser (wantsPage) the same status as an HTML page that says what
// happened and where to go.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed || !wantsPage(c.Request()) || c.Request().Method == http.MethodHead {
		respond.Error(err, c)
		return
	}
	status, body, _ := apierror.Response(err)
	if status == http.StatusPaymentRequired {
		respond.Error(err, c)
		return
	}
	var buf bytes.Buffer
	if rerr := s.web.Render(&buf, "error", web.NewErrorView(status, body.Message, s.full)); rerr != nil {
		respond.Error(err, c)
		return
	}
	h := c.Response().Header()
	pages.SetHeaders(h)
	var ae *apierror.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		h.Set(echo.HeaderRetryAfter, respond.RetryAfterSeconds(ae.RetryAfter))
	} else if body.Error == apierror.Unavailable {
		h.Set(echo.HeaderRetryAfter, apierror.DefaultRetryAfter)
	}
	h.Set("Cache-Control", "no-store")
	_ = c.HTMLBlob(status, buf.Bytes())
}
