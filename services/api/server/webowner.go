package server

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The owner, repository and documentation pages, and the HTML answer of a
// failed request from a browser.

// maxOwnerName bounds an owner or repository name of a page's path (GitHub
// allows 39 and 100 characters).
const maxOwnerName = 100

// ownerSegment lowercases a path segment of an owner or repository name,
// or refuses it as a 404 when it cannot be one.
func ownerSegment(s string) (string, error) {
	if s == "" || len(s) > maxOwnerName || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return "", apierror.New(apierror.NotFound, "No GitHub owner or repository has that name.")
	}
	return strings.ToLower(s), nil
}

// getOwnerPage answers GET /o/{owner}: every bundle of the owner's
// repositories with its state.
func (s *Server) getOwnerPage(c echo.Context) error {
	owner, err := ownerSegment(c.Param("owner"))
	if err != nil {
		return err
	}
	list, more, err := s.store.OwnerBundles(c.Request().Context(), owner)
	if err != nil {
		return err
	}
	v := web.NewOwnerView(web.OwnerInput{Owner: owner, Bundles: owned(list), More: more, Full: s.full})
	v.Canonical = s.baseURL + "/o/" + owner
	return s.writePage(c, http.StatusOK, func(w io.Writer) error { return s.web.Render(w, "owner", v) })
}

// getRepoPage answers GET /r/{owner}/{repo}: every bundle of the
// repository with its state, and what GET /api/status says of it.
func (s *Server) getRepoPage(c echo.Context) error {
	owner, err := ownerSegment(c.Param("owner"))
	if err != nil {
		return err
	}
	name, err := ownerSegment(c.Param("repo"))
	if err != nil {
		return err
	}
	repo := owner + "/" + name
	ctx := c.Request().Context()
	list, more, err := s.store.RepoBundles(ctx, repo)
	if err != nil {
		return err
	}
	st, err := s.repoStatus.Page(ctx, repo)
	if err != nil {
		return err
	}
	v := web.NewOwnerView(web.OwnerInput{Owner: owner, Repo: repo, Bundles: owned(list), More: more, Status: &st, Full: s.full})
	v.Canonical = s.baseURL + "/r/" + repo
	return s.writePage(c, http.StatusOK, func(w io.Writer) error { return s.web.Render(w, "owner", v) })
}

func owned(list []store.Bundle) []web.OwnedInput {
	out := make([]web.OwnedInput, len(list))
	for i, b := range list {
		out[i] = web.OwnedInput{Card: b.Card, Low: b.Visibility == wire.VisibilityLow}
	}
	return out
}

// getDocsPage answers GET /docs and GET /docs/{name}: a file of the
// service's documentation bundle rendered for people.
func (s *Server) getDocsPage(c echo.Context) error {
	name := c.Param("name")
	if name == "" {
		name = "index"
	}
	text, ok := s.discovery.OKFDoc(name + ".md")
	if !ok {
		return apierror.New(apierror.NotFound, "The documentation has index, sobre, api and faq; start at /docs.")
	}
	v := web.NewDocView(name+".md", text, s.discovery.OKFDocNames(), s.full)
	v.Canonical = s.baseURL + "/docs"
	if name != "index" {
		v.Canonical += "/" + name
	}
	return s.writePage(c, http.StatusOK, func(w io.Writer) error { return s.web.Render(w, "docs", v) })
}

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
	setPageHeaders(h)
	var ae *apierror.Error
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		h.Set(echo.HeaderRetryAfter, respond.RetryAfterSeconds(ae.RetryAfter))
	} else if body.Error == apierror.Unavailable {
		h.Set(echo.HeaderRetryAfter, apierror.DefaultRetryAfter)
	}
	h.Set("Cache-Control", "no-store")
	_ = c.HTMLBlob(status, buf.Bytes())
}
