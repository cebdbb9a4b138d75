// Package vitrine serves the full variant's public usage projection and
// the operator's views of it (contract 2.8, 4.7): GET /api/vitrine and
// /api/vitrine/{operador,painel,cursores}. The collector (the worker's
// publish_vitrine job, pkg/vitrine) publishes the documents every hour
// into Postgres; these handlers only read the latest publication. Nothing
// here accepts numbers.
package vitrine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	projection "github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/operator"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Store is what the vitrine reads: the latest published document of a kind.
type Store interface {
	VitrineDocument(ctx context.Context, product, kind string) (doc store.VitrineDoc, ok bool, err error)
}

// Deps are what the vitrine's routes need.
type Deps struct {
	Store        Store
	BaseURL      string           // PUBLIC_BASE_URL without a trailing slash
	Now          func() time.Time // the clock of the stale flag
	MetricsToken string           // the operator token
	Collector    bool             // VITRINE_COLLECTOR: this service runs the collector
}

// Service answers the vitrine's routes.
type Service struct{ d Deps }

// New builds the vitrine of d.
func New(d Deps) *Service { return &Service{d: d} }

// Routes are the vitrine's rows of the route table.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/vitrine", Summary: "Public usage projection, published hourly by the collector", Full: true,
			Handler: s.getVitrine, Usage: route.CountedAsAPI},
		{Method: http.MethodGet, Path: "/api/vitrine/operador", Summary: "The collector's exact usage document (operator token)", Full: true,
			Handler: s.getOperatorDocument, Usage: route.NotCounted, Credentials: route.TakesOperatorToken},
		{Method: http.MethodGet, Path: "/api/vitrine/painel", Summary: "Operator panel of the products the collector publishes (operator token)", Full: true,
			Handler: s.getPanel, Usage: route.NotCounted, Credentials: route.TakesOperatorToken},
		{Method: http.MethodGet, Path: "/api/vitrine/cursores", Summary: "How far the collector has read each source (operator token)", Full: true,
			Handler: s.getCursors, Usage: route.NotCounted, Credentials: route.TakesOperatorToken},
	}
}

// vitrineCache is the public projection's HTTP cache (contract 8).
const vitrineCache = "public, max-age=900"

// Unpublished is the projection before the first publication: the
// five keys of contract 2.8.
type Unpublished struct {
	V         int     `json:"v"`
	Product   string  `json:"produto"`
	Published bool    `json:"publicado"`
	UpdatedAt *string `json:"atualizado_em"`
	Stale     bool    `json:"stale"`
}

// getVitrine answers GET /api/vitrine: the latest published projection,
// its stale flag set now, with a strong ETag of its bytes and a 15-minute
// cache; a matching If-None-Match is a 304.
func (s *Service) getVitrine(c echo.Context) error {
	body, err := s.vitrineBody(c.Request().Context())
	if err != nil {
		return err
	}
	return respond.Validated(c, echo.MIMEApplicationJSON, body, respond.StrongValidatorsOf(body), vitrineCache)
}

// vitrineBody is the public projection as served now.
func (s *Service) vitrineBody(ctx context.Context) ([]byte, error) {
	p, ok, err := s.publishedProjection(ctx, store.VitrinePublic)
	if err != nil {
		return nil, err
	}
	if !ok {
		return respond.Marshal(Unpublished{V: projection.Version, Product: wire.ProductID})
	}
	return respond.Marshal(p)
}

// publishedProjection reads a published projection (public or operator)
// and sets its stale flag from its age.
func (s *Service) publishedProjection(ctx context.Context, kind string) (projection.Projection, bool, error) {
	doc, ok, err := s.d.Store.VitrineDocument(ctx, wire.ProductID, kind)
	if err != nil || !ok {
		return projection.Projection{}, false, err
	}
	var p projection.Projection
	if err := json.Unmarshal(doc.Doc, &p); err != nil {
		return projection.Projection{}, false, fmt.Errorf("vitrine: published %s projection: %w", kind, err)
	}
	p.Stale = s.d.Now().Sub(doc.PublishedAt) > projection.StaleAfter
	return p, true, nil
}

// requireOperator admits an operator route's request: no Authorization,
// another scheme, a wrong token or a token of another class (an hsk_ key,
// a cred_ token; a session cookie is no Authorization) is a 401
// invalid_token; a token sent to a service without METRICS_TOKEN is a 503
// token_not_configured (GET /api/metrics's check, ops.CheckToken); the
// operator token while the collector is off is a 503
// collector_not_configured.
func (s *Service) requireOperator(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	auth := c.Request().Header.Get(echo.HeaderAuthorization)
	if s.d.MetricsToken == "" {
		// Contract section 7: the service has no operator token, whatever
		// is sent.
		return apierror.New(apierror.TokenNotConfigured, "This service has no operator token configured (METRICS_TOKEN), so the operator views are off.")
	}
	if auth == "" {
		return apierror.New(apierror.InvalidToken, "This route needs the operator token: Authorization: Bearer <METRICS_TOKEN>.")
	}
	if _, err := operator.Check(s.d.MetricsToken, auth); err != nil {
		return err
	}
	if !s.d.Collector {
		return apierror.New(apierror.CollectorNotConfigured,
			"This service runs no collector (VITRINE_COLLECTOR=off), so there is nothing to show.")
	}
	return nil
}

// OperatorDocument is the answer of GET /api/vitrine/operador.
type OperatorDocument struct {
	Product   string                 `json:"produto"`
	UpdatedAt *string                `json:"atualizado_em"`
	Operator  *projection.Projection `json:"operador"`
}

// getOperatorDocument answers GET /api/vitrine/operador: the collector's
// exact document; null before its first publication.
func (s *Service) getOperatorDocument(c echo.Context) error {
	if err := s.requireOperator(c); err != nil {
		return err
	}
	p, ok, err := s.publishedProjection(c.Request().Context(), store.VitrineOperator)
	if err != nil {
		return err
	}
	out := OperatorDocument{Product: wire.ProductID}
	if ok {
		out.UpdatedAt, out.Operator = p.UpdatedAt, &p
	}
	return respond.JSON(c, http.StatusOK, out)
}

// getPanel answers GET /api/vitrine/painel: {apps: []} before the
// collector's first publication.
func (s *Service) getPanel(c echo.Context) error {
	return s.operatorDocument(c, store.VitrinePanel, `{"apps":[]}`)
}

// getCursors answers GET /api/vitrine/cursores: {} before the
// collector's first publication.
func (s *Service) getCursors(c echo.Context) error {
	return s.operatorDocument(c, store.VitrineCursors, `{}`)
}

// operatorDocument answers an operator route with the published document
// of kind as it was stored, or empty before the first publication.
func (s *Service) operatorDocument(c echo.Context, kind, empty string) error {
	if err := s.requireOperator(c); err != nil {
		return err
	}
	doc, ok, err := s.d.Store.VitrineDocument(c.Request().Context(), wire.ProductID, kind)
	if err != nil {
		return err
	}
	body := []byte(empty + "\n")
	if ok {
		body = append(doc.Doc, '\n')
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// Excerpt is a few numbers of the public projection with its link,
// for documents that cite it (GET /api/partners's stats). Before the first
// publication publicado is false and the numbers are null.
type Excerpt struct {
	Published  bool    `json:"publicado"`
	UpdatedAt  *string `json:"atualizado_em"`
	Stale      bool    `json:"stale"`
	Bundles    *int64  `json:"bundles"`       // catalogo.bundles
	Usage30d   *int64  `json:"uso_30d"`       // uso.d30
	Visitors7d *int64  `json:"visitantes_7d"` // visitantes.d7
	APIAI30d   *int64  `json:"api_ia_30d"`    // agentes.api_ia_30d
	MCP30d     *int64  `json:"mcp_30d"`       // mcp.pedidos_30d
	Link       string  `json:"link"`          // PUBLIC_BASE_URL/api/vitrine
}

// Excerpt reads the latest public projection into an excerpt (the
// rounded public numbers, never the operator's).
func (s *Service) Excerpt(ctx context.Context) (Excerpt, error) {
	out := Excerpt{Link: s.d.BaseURL + "/api/vitrine"}
	p, ok, err := s.publishedProjection(ctx, store.VitrinePublic)
	if err != nil || !ok {
		return out, err
	}
	out.Published, out.UpdatedAt, out.Stale = true, p.UpdatedAt, p.Stale
	if p.Catalog != nil {
		out.Bundles = &p.Catalog.Bundles
	}
	out.Usage30d, out.Visitors7d, out.APIAI30d, out.MCP30d = p.Usage.D30, p.Visitors.D7, p.Agents.APIAI30d, p.MCP.Requests30d
	return out, nil
}
