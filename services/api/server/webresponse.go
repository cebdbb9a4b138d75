package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/services/api/server/web"
)

// mimeOpenSearch is the type of /opensearch.xml.
const mimeOpenSearch = "application/opensearchdescription+xml"

// pageCSP is the Content-Security-Policy of every page: scripts, styles,
// pictures and requests from this origin only, no inline script or style,
// no eval, no framing, forms to this origin.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// gzipMin is the smallest answer worth compressing.
const gzipMin = 1024

var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// gzipWith compresses body with a writer of pool (a pool of *gzip.Writer
// of one level).
func gzipWith(pool *sync.Pool, body []byte) ([]byte, error) {
	var zb bytes.Buffer
	zb.Grow(len(body) / 3)
	zw := pool.Get().(*gzip.Writer)
	defer pool.Put(zw)
	zw.Reset(&zb)
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return zb.Bytes(), nil
}

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
	return sendCompressible(c, status, mimeHTML, buf.Bytes(), "no-cache")
}

// writeAsset sends an embedded asset: cached for good when the request
// names its current version (?v=hash, as the pages do), else revalidated.
func (s *Server) writeAsset(c echo.Context, a web.Asset) error {
	cache := "no-cache"
	if c.QueryParam("v") == a.Hash {
		cache = "public, max-age=31536000, immutable"
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return sendCompressible(c, http.StatusOK, a.Type, a.Body, cache)
}

// sendCompressible sends body with an ETag (on success, conditional.go),
// Cache-Control, Vary: Accept-Encoding and gzip when the client accepts it.
func sendCompressible(c echo.Context, status int, contentType string, body []byte, cache string) error {
	h := c.Response().Header()
	h.Add("Vary", "Accept-Encoding")
	if status == http.StatusOK {
		v := validatorsOf(body, time.Time{})
		v.set(h, cache)
		if v.notModified(c.Request()) {
			return c.NoContent(http.StatusNotModified)
		}
	} else {
		h.Set("Cache-Control", "no-store")
	}
	if len(body) >= gzipMin && acceptsGzip(c.Request().Header.Get("Accept-Encoding")) {
		zb, err := gzipWith(&gzipWriters, body)
		if err != nil {
			return err
		}
		h.Set("Content-Encoding", "gzip")
		body = zb
	}
	return c.Blob(status, contentType, body)
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (and
// does not refuse it with q=0).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
