package discovery

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// Health is the answer of GET /api/health (contract 2.5b).
type Health struct {
	OK    bool   `json:"ok"`
	App   string `json:"app"`
	Build string `json:"build"`
}

// getHealth answers while the process serves requests. It does not read the
// database: it is a liveness answer, and it must stay cheap.
func (s *Service) getHealth(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, s.healthJSON)
}
