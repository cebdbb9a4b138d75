package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/usage"
)

// The payment view signal of the full variant (contract 4.4, POST
// /api/pagamento/aberto): the credit page tells the service that a person
// opened the view of a 402's payment requirements. It counts the event
// under usage.PaymentView and does nothing else: it starts no payment,
// grants no access and counts events, not people. Only this service's own
// page in a browser can send what it takes, and agents must not call it
// (it is no MCP tool).

const (
	paymentViewPath   = "/api/pagamento/aberto"
	paymentViewHeader = "X-House-Payment-View"
)

// postPaymentView answers POST /api/pagamento/aberto: 202 with no body when
// the signal is the page's own, 204 (ignored) otherwise; always no-store.
// The body is never read: the request has none, and one that carries a
// body is not the page's signal, so it is ignored.
func (s *Server) postPaymentView(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	if !paymentViewSignal(c.Request(), s.account.Origin()) {
		return c.NoContent(http.StatusNoContent)
	}
	s.usage.Add(usage.PaymentView, 1)
	return c.NoContent(http.StatusAccepted)
}

// paymentViewSignal reports whether a request is the page's signal: one
// Origin exactly origin, this service's (PUBLIC_BASE_URL's origin, never
// the Host header), Sec-Fetch-Site same-origin, X-House-Payment-View 1, no body and
// not test traffic.
func paymentViewSignal(req *http.Request, origin string) bool {
	h := req.Header
	one := func(name, want string) bool {
		v := h.Values(name)
		return len(v) == 1 && v[0] == want
	}
	return one(echo.HeaderOrigin, origin) &&
		one("Sec-Fetch-Site", "same-origin") &&
		one(paymentViewHeader, "1") &&
		req.ContentLength == 0 && !isSmoke(h)
}
