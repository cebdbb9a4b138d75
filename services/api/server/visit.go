package server

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/clientreport"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// maxVisitBody is as much of a visit's body as is read: the two optional
// fields fit many times over; anything longer is not read at all.
const maxVisitBody = 4 << 10

// VisitAck is the answer of POST /api/visit.
type VisitAck struct {
	Counted bool `json:"counted"`
	OK      bool `json:"ok"`
}

// postVisit answers POST /api/visit (contract 4.4): always 200 with ok
// true, whatever the body. Test traffic (the X-House-Smoke header, the
// house-smoke User-Agent, or "smoke": true in the body) is not counted;
// any other visit adds one to the day's okf_visit counter. A body that is
// not a JSON object, or is too long to read, is a visit like any other.
func (s *Server) postVisit(c echo.Context) error {
	body, _ := io.ReadAll(io.LimitReader(c.Request().Body, maxVisitBody+1))
	var visit struct {
		Smoke bool `json:"smoke"`
	}
	if len(body) <= maxVisitBody {
		_ = json.Unmarshal(body, &visit) // a bad body is still a visit
	}
	if visit.Smoke || isSmoke(c.Request().Header) {
		return respond.JSON(c, http.StatusOK, VisitAck{Counted: false, OK: true})
	}
	s.usage.Add(usage.Visit, 1)
	s.countVisitor(c.Request())
	return respond.JSON(c, http.StatusOK, VisitAck{Counted: true, OK: true})
}

// maxPendingReports bounds the distinct failures one process holds per
// minute (each up to the 64 KiB body cap); more are dropped and counted in
// one event. The web page has a few dozen failure sites, not hundreds.
const maxPendingReports = 200

// postClientError answers POST /api/erro-cliente (contract 4.4): always 204
// with no body. The report goes to pkg/clientreport, which validates,
// redacts and merges it and writes a log event; nothing reaches the
// database, and neither the address, the cookies nor the full User-Agent
// are passed on. A body over clientreport.MaxBodyBytes is not read past the
// cap and is dropped as invalid.
func (s *Server) postClientError(c echo.Context) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, clientreport.MaxBodyBytes+1))
	if err == nil {
		s.reports.Report(body, c.Request().Header.Get("User-Agent"))
	}
	return c.NoContent(http.StatusNoContent)
}
