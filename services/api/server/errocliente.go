package server

import (
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/clientreport"
)

// maxPendingReports bounds the distinct failures one process holds per
// minute (each up to the 64 KiB body cap); more are dropped and counted in
// one event. The web page has a few dozen failure sites, not hundreds.
const maxPendingReports = 200

// postErroCliente answers POST /api/erro-cliente (contract 4.4): always 204
// with no body. The report goes to pkg/clientreport, which validates,
// redacts and merges it and writes a log event; nothing reaches the
// database, and neither the address, the cookies nor the full User-Agent
// are passed on. A body over clientreport.MaxBodyBytes is not read past the
// cap and is dropped as invalid.
func (s *Server) postErroCliente(c echo.Context) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, clientreport.MaxBodyBytes+1))
	if err == nil {
		s.reports.Report(body, c.Request().Header.Get("User-Agent"))
	}
	return c.NoContent(http.StatusNoContent)
}
