package respond

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// gzipMin is the smallest answer worth compressing.
const gzipMin = 1024

var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// GzipWith compresses body with a writer of pool (a pool of *gzip.Writer
// of one level).
func GzipWith(pool *sync.Pool, body []byte) ([]byte, error) {
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

// Compressible sends body with an ETag (on success, conditional.go),
// Cache-Control, Vary: Accept-Encoding and gzip when the client accepts it.
func Compressible(c echo.Context, status int, contentType string, body []byte, cache string) error {
	h := c.Response().Header()
	h.Add("Vary", "Accept-Encoding")
	if status == http.StatusOK {
		v := ValidatorsOf(body, time.Time{})
		v.Set(h, cache)
		if v.NotModified(c.Request()) {
			return c.NoContent(http.StatusNotModified)
		}
	} else {
		h.Set("Cache-Control", "no-store")
	}
	if len(body) >= gzipMin && AcceptsGzip(c.Request().Header.Get("Accept-Encoding")) {
		zb, err := GzipWith(&gzipWriters, body)
		if err != nil {
			return err
		}
		h.Set("Content-Encoding", "gzip")
		body = zb
	}
	return c.Blob(status, contentType, body)
}

// AcceptsGzip reports whether an Accept-Encoding header takes gzip (and
// does not refuse it with q=0).
func AcceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
