package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Go's HTTP server answers a request whose line and headers pass
// http.Server.MaxHeaderBytes itself, before any handler (package protoerr
// rewrites that answer into the JSON error). The API sets that limit well
// above its own (MaxHeaderBytes) and refuses past maxRequestHead here, with
// the route's own middleware and logging.

const (
	// maxRequestHead is the most bytes of request line and headers the API
	// reads: ample for browsers, proxies and agents (a few KiB), small
	// enough that no request carries a body in its headers.
	maxRequestHead = 32 << 10
	// MaxHeaderBytes is http.Server.MaxHeaderBytes of okf-api: Go's own
	// limit, past which it answers 431 itself (as JSON, through protoerr).
	MaxHeaderBytes = 1 << 20
)

// limitRequestHead refuses a request whose line and headers pass
// maxRequestHead with 431 headers_too_large.
func limitRequestHead(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if requestHeadSize(c.Request()) > maxRequestHead {
			return apierror.New(apierror.HeadersTooLarge,
				"The request line and headers are over 32 KiB; send less in them (a body carries data).")
		}
		return next(c)
	}
}

// requestHeadSize is about what the request line and headers took on the
// wire: method, target, protocol, Host, and each header line.
func requestHeadSize(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4 + len("Host: \r\n") + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}
