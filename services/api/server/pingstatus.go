package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// getPingStatus answers GET /api/ping/status?host=<domain>: the newest
// submitted URLs of one host (at most store.MaxPingStatus), newest first,
// each pendente, publicado (with its bundle id) or rejeitado (with the
// reason); never a key. An unknown host has an empty list; a missing or
// malformed host is a 400 invalid_host.
func (s *Server) getPingStatus(c echo.Context) error {
	host, ok := normalizeHost(c.QueryParam("host"))
	if !ok {
		return pingError(http.StatusBadRequest, errInvalidHost, "host",
			"host must be a domain name (no scheme, port, path or IP address).")
	}
	items, err := s.store.PingStatuses(c.Request().Context(), host, store.MaxPingStatus)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, wire.PingStatusPage{Host: host, Items: items})
}
