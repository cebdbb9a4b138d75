package pages

import (
	"io"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/search"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// getBundlePage answers GET /b/{id}: one bundle's page, live or low, as
// its card answers; a missing bundle is a 404 page.
func (s *Service) getBundlePage(c echo.Context) error {
	ctx := c.Request().Context()
	if !search.ValidID(c.Param("id")) {
		return apierror.New(apierror.NotFound, "No public bundle has that id.")
	}
	b, err := s.d.Store.GetBundle(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	card := s.d.Search.Publish(b)
	v := web.NewBundleView(card, s.d.Full, s.d.BaseURL)
	v.Low = b.Visibility == wire.VisibilityLow
	if b.Imported {
		v.SetImported()
	}
	v.Canonical = s.d.BaseURL + "/b/" + card.ID
	if card.Source.Repo != nil {
		links, ok, err := s.d.Store.BundleLinks(ctx, card.ID)
		if err != nil {
			return err
		}
		if ok {
			v.SetLinks(links.Total, links.Missing)
		}
	}
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "bundle", v) })
}

// getStatsPage answers GET /stats: the statistics drawn as charts.
func (s *Service) getStatsPage(c echo.Context) error {
	st, err := s.d.Search.Facets(c.Request().Context())
	if err != nil {
		return err
	}
	v := web.NewStatsView(st, s.d.Full)
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "stats", v) })
}

// getCreditPage answers GET /credit: the balance form, the packages and,
// through the script, their payment requirements.
func (s *Service) getCreditPage(c echo.Context) error {
	v := web.NewCreditView(s.d.Credit.PackagesUSD, s.d.BaseURL, s.d.Credit.Selling())
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "credit", v) })
}
