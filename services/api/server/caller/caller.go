// Package caller holds what the middleware learns about who calls, for
// the handlers and the MCP tools (which see only a context): the client
// address the per-client limits count by, and the API key a request
// presented.
package caller

import (
	"context"
	"net"
	"net/netip"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/store"
)

// Who a request comes from, for the per-client limits: the TCP peer, or,
// behind a reverse proxy named by TRUSTED_PROXY_HEADER, the address the
// proxy passes. An IPv6 client counts by its /64, which one host or one
// customer of a provider usually holds whole.

type clientKey struct{}

// Middleware stores the request's client in its context, where the
// handlers and the MCP tools (which see only a context) find it.
func Middleware(trustedHeader string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			client := Of(req.RemoteAddr, req.Header.Values(trustedHeader), trustedHeader != "")
			c.SetRequest(req.WithContext(context.WithValue(req.Context(), clientKey{}, client)))
			return next(c)
		}
	}
}

// Client returns the client stored by Middleware; the zero prefix when
// there is none (a call from outside HTTP).
func Client(ctx context.Context) netip.Prefix {
	p, _ := ctx.Value(clientKey{}).(netip.Prefix)
	return p
}

// Of is the client of a request from peer (host:port), or from the
// trusted header's values when trusted: the last address of the last value,
// the one the proxy itself appended. A header that does not hold an address
// falls back to the peer.
func Of(peer string, header []string, trusted bool) netip.Prefix {
	if trusted && len(header) > 0 {
		last := header[len(header)-1]
		if i := strings.LastIndexByte(last, ','); i >= 0 {
			last = last[i+1:]
		}
		if a, err := netip.ParseAddr(strings.TrimSpace(last)); err == nil {
			return clientPrefix(a)
		}
	}
	host, _, err := net.SplitHostPort(peer)
	if err != nil {
		host = peer
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Prefix{}
	}
	return clientPrefix(a)
}

// clientPrefix is the block one client is counted by: the address for
// IPv4, its /64 for IPv6.
func clientPrefix(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// apiKeyContextKey holds the request's store.APIKey in the Echo context.
const apiKeyContextKey = "okf.apikey"

// SetAPIKey records the API key a request presented, once checked.
func SetAPIKey(c echo.Context, k store.APIKey) { c.Set(apiKeyContextKey, k) }

// APIKey is the API key the request presented and the middleware checked;
// ok is false when there is none.
func APIKey(c echo.Context) (k store.APIKey, ok bool) {
	k, ok = c.Get(apiKeyContextKey).(store.APIKey)
	return k, ok
}
