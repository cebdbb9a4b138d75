package discovery

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/services/api/server/operator"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// Health is the answer of GET /api/health (contract 2.5b).
type Health struct {
	OK       bool            `json:"ok"`
	App      string          `json:"app"`
	Build    string          `json:"build"`
	Operator *HealthOperator `json:"operator,omitempty"`
}

// HealthOperator is the operator's side of the health answer (full
// variant, with the operator token): how payments are taken, so that a
// dev deployment cannot go unnoticed.
type HealthOperator struct {
	X402Mode string `json:"x402_mode"`
}

// getHealth answers while the process serves requests. It does not read the
// database: it is a liveness answer, and it must stay cheap. The operator
// token adds the operator's side; any other Authorization is ignored, so
// the answer never fails.
func (s *Service) getHealth(c echo.Context) error {
	if s.d.Full && s.d.MetricsToken != "" && s.d.Payments != nil {
		if ok, err := operator.Check(s.d.MetricsToken, c.Request().Header.Get(echo.HeaderAuthorization)); ok && err == nil {
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
			return respond.JSON(c, http.StatusOK, Health{OK: true, App: AppName, Build: s.d.Build,
				Operator: &HealthOperator{X402Mode: s.d.Payments.ModeName()}})
		}
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, s.healthJSON)
}
