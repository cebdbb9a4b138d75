package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// The public usage projection and the operator views (contract 2.8, 4.7;
// full variant). The collector (the worker's publish_vitrine job,
// pkg/vitrine) publishes the documents every hour into Postgres; these
// handlers only read the latest publication. Nothing here accepts numbers.

// vitrineCache is the public projection's HTTP cache (contract 8).
const vitrineCache = "public, max-age=900"

// VitrineUnpublished is the projection before the first publication: the
// five keys of contract 2.8.
type VitrineUnpublished struct {
	V            int     `json:"v"`
	Produto      string  `json:"produto"`
	Publicado    bool    `json:"publicado"`
	AtualizadoEm *string `json:"atualizado_em"`
	Stale        bool    `json:"stale"`
}

// getVitrine answers GET /api/vitrine: the latest published projection,
// its stale flag set now, with a strong ETag of its bytes and a 15-minute
// cache; a matching If-None-Match is a 304.
func (s *Server) getVitrine(c echo.Context) error {
	body, err := s.vitrineBody(c.Request().Context())
	if err != nil {
		return err
	}
	return respond.Validated(c, echo.MIMEApplicationJSON, body, respond.StrongValidatorsOf(body), vitrineCache)
}

// vitrineBody is the public projection as served now.
func (s *Server) vitrineBody(ctx context.Context) ([]byte, error) {
	p, ok, err := s.publishedProjection(ctx, store.VitrinePublic)
	if err != nil {
		return nil, err
	}
	if !ok {
		return respond.Marshal(VitrineUnpublished{V: vitrine.Version, Produto: billing.ProductID})
	}
	return respond.Marshal(p)
}

// publishedProjection reads a published projection (public or operator)
// and sets its stale flag from its age.
func (s *Server) publishedProjection(ctx context.Context, kind string) (vitrine.Projection, bool, error) {
	doc, ok, err := s.store.VitrineDocument(ctx, billing.ProductID, kind)
	if err != nil || !ok {
		return vitrine.Projection{}, false, err
	}
	var p vitrine.Projection
	if err := json.Unmarshal(doc.Doc, &p); err != nil {
		return vitrine.Projection{}, false, fmt.Errorf("server: published %s projection: %w", kind, err)
	}
	p.Stale = s.now().Sub(doc.PublishedAt) > vitrine.StaleAfter
	return p, true, nil
}

// requireOperator admits an operator route's request: no Authorization,
// another scheme, a wrong token or a token of another class (an hsk_ key,
// a cred_ token; a session cookie is no Authorization) is a 401
// invalid_token; a token sent to a service without METRICS_TOKEN is a 503
// token_not_configured (GET /api/metrics's check, ops.CheckToken); the
// operator token while the collector is off is a 503
// collector_not_configured.
func (s *Server) requireOperator(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	auth := c.Request().Header.Get(echo.HeaderAuthorization)
	if auth == "" {
		return apierror.New(apierror.InvalidToken, "This route needs the operator token: Authorization: Bearer <METRICS_TOKEN>.")
	}
	if _, err := s.operator(auth); err != nil {
		return err
	}
	if !s.cfg.VitrineCollector {
		return apierror.New(apierror.CollectorNotConfigured,
			"This service runs no collector (VITRINE_COLLECTOR=off), so there is nothing to show.")
	}
	return nil
}

// VitrineOperator is the answer of GET /api/vitrine/operador.
type VitrineOperator struct {
	Produto      string              `json:"produto"`
	AtualizadoEm *string             `json:"atualizado_em"`
	Operador     *vitrine.Projection `json:"operador"`
}

// getVitrineOperador answers GET /api/vitrine/operador: the collector's
// exact document; null before its first publication.
func (s *Server) getVitrineOperador(c echo.Context) error {
	if err := s.requireOperator(c); err != nil {
		return err
	}
	p, ok, err := s.publishedProjection(c.Request().Context(), store.VitrineOperator)
	if err != nil {
		return err
	}
	out := VitrineOperator{Produto: billing.ProductID}
	if ok {
		out.AtualizadoEm, out.Operador = p.AtualizadoEm, &p
	}
	return respond.JSON(c, http.StatusOK, out)
}

// getVitrinePainel answers GET /api/vitrine/painel: {apps: []} before the
// collector's first publication.
func (s *Server) getVitrinePainel(c echo.Context) error {
	return s.operatorDocument(c, store.VitrinePanel, `{"apps":[]}`)
}

// getVitrineCursores answers GET /api/vitrine/cursores: {} before the
// collector's first publication.
func (s *Server) getVitrineCursores(c echo.Context) error {
	return s.operatorDocument(c, store.VitrineCursors, `{}`)
}

// operatorDocument answers an operator route with the published document
// of kind as it was stored, or empty before the first publication.
func (s *Server) operatorDocument(c echo.Context, kind, empty string) error {
	if err := s.requireOperator(c); err != nil {
		return err
	}
	doc, ok, err := s.store.VitrineDocument(c.Request().Context(), billing.ProductID, kind)
	if err != nil {
		return err
	}
	body := []byte(empty + "\n")
	if ok {
		body = append(doc.Doc, '\n')
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// VitrineExcerpt is a few numbers of the public projection with its link,
// for documents that cite it (GET /api/partners's stats). Before the first
// publication publicado is false and the numbers are null.
type VitrineExcerpt struct {
	Publicado    bool    `json:"publicado"`
	AtualizadoEm *string `json:"atualizado_em"`
	Stale        bool    `json:"stale"`
	Bundles      *int64  `json:"bundles"`       // catalogo.bundles
	Uso30d       *int64  `json:"uso_30d"`       // uso.d30
	Visitantes7d *int64  `json:"visitantes_7d"` // visitantes.d7
	APIIA30d     *int64  `json:"api_ia_30d"`    // agentes.api_ia_30d
	MCP30d       *int64  `json:"mcp_30d"`       // mcp.pedidos_30d
	Link         string  `json:"link"`          // PUBLIC_BASE_URL/api/vitrine
}

// vitrineExcerpt reads the latest public projection into an excerpt (the
// rounded public numbers, never the operator's).
func (s *Server) vitrineExcerpt(ctx context.Context) (VitrineExcerpt, error) {
	out := VitrineExcerpt{Link: s.baseURL + "/api/vitrine"}
	p, ok, err := s.publishedProjection(ctx, store.VitrinePublic)
	if err != nil || !ok {
		return out, err
	}
	out.Publicado, out.AtualizadoEm, out.Stale = true, p.AtualizadoEm, p.Stale
	if p.Catalogo != nil {
		out.Bundles = &p.Catalogo.Bundles
	}
	out.Uso30d, out.Visitantes7d, out.APIIA30d, out.MCP30d = p.Uso.D30, p.Visitantes.D7, p.Agentes.APIIA30d, p.MCP.Pedidos30d
	return out, nil
}
