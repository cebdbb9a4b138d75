package server

import (
	"bytes"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// mimeOpenSearch is the type of /opensearch.xml.
const mimeOpenSearch = "application/opensearchdescription+xml"

// pageCSP is the Content-Security-Policy of every page: scripts, styles,
// pictures and requests from this origin only, no inline script or style,
// no eval, no framing, forms to this origin.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// setPageHeaders sets the security headers of a page.
func setPageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

// writePage renders a page and sends it with the security headers, a weak
// ETag of its bytes (a matching If-None-Match is a 304; pages revalidate on
// every use, Cache-Control no-cache) and gzip when the client takes it.
func (s *Server) writePage(c echo.Context, status int, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	h := c.Response().Header()
	setPageHeaders(h)
	return respond.Compressible(c, status, respond.MIMEHTML, buf.Bytes(), "no-cache")
}

// writeAsset sends an embedded asset: cached for good when the request
// names its current version (?v=hash, as the pages do), else revalidated.
func (s *Server) writeAsset(c echo.Context, a web.Asset) error {
	cache := "no-cache"
	if c.QueryParam("v") == a.Hash {
		cache = "public, max-age=31536000, immutable"
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return respond.Compressible(c, http.StatusOK, a.Type, a.Body, cache)
}
