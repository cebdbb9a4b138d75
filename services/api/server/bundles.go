package server

import (
	"context"
	"net/http"
	"regexp"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
)

// Page is the answer of GET /api/bundles (contract 2.5).
type Page struct {
	Items      []store.Bundle `json:"items"`
	Limit      int            `json:"limit"`
	Offset     int            `json:"offset"`
	NextOffset *int           `json:"next_offset"`
	Next       *string        `json:"next"`
}

// idShape is the shape of every bundle id (source.MaxIDLen characters at most).
var idShape = regexp.MustCompile(`^[a-z0-9-]{1,` + strconv.Itoa(source.MaxIDLen) + `}$`)

// searchBundles answers GET /api/bundles: a page of live bundles.
func (s *Server) searchBundles(c echo.Context) error {
	page, err := s.search(c.Request().Context(), c.Request().URL.RawQuery)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, page)
}

// search validates a query string of GET /api/bundles and returns its page;
// the REST route and the search_bundles tool both answer with it.
//
// The list ends at resultCap: a page at or past it is empty, and a page
// crossing it is cut there; either way next_offset is null. Whether a next
// page exists is known without counting (see searchMore).
func (s *Server) search(ctx context.Context, rawQuery string) (Page, error) {
	p, err := parseSearch(rawQuery, s.full)
	if err != nil {
		return Page{}, err
	}
	page := Page{Items: []store.Bundle{}, Limit: p.Limit, Offset: p.Offset}
	want := min(p.Limit, resultCap-p.Offset) // bundles this page may hold
	if want <= 0 {
		return page, nil
	}
	items, more, err := s.searchMore(ctx, p, want, p.Offset+want < resultCap)
	if err != nil {
		return Page{}, err
	}
	if more {
		next := p
		next.Offset = p.Offset + want
		url := s.baseURL + "/api/bundles?" + canonicalQuery(next)
		page.NextOffset, page.Next = &next.Offset, &url
	}
	for i := range items {
		s.publish(&items[i])
	}
	if items != nil {
		page.Items = items
	}
	return page, nil
}

// searchMore returns up to want bundles of p from p.Offset and, when
// mayHaveMore, whether more follow: it asks the store for one bundle more
// than the page, in the same query.
func (s *Server) searchMore(ctx context.Context, p store.SearchParams, want int, mayHaveMore bool) ([]store.Bundle, bool, error) {
	sp := p
	sp.Limit = want
	if mayHaveMore {
		sp.Limit = want + 1
	}
	items, err := s.store.Search(ctx, sp)
	if err != nil || len(items) <= want {
		return items, false, err
	}
	return items[:want], true, nil
}

// getBundle answers GET /api/bundles/{id}: the card of a live or low
// bundle.
func (s *Server) getBundle(c echo.Context) error {
	b, err := s.bundle(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, b)
}

// bundle returns the published card of id; the REST route and the
// get_bundle tool both answer with it. An id that cannot be a bundle id is
// a 404 without a database read.
func (s *Server) bundle(ctx context.Context, id string) (store.Bundle, error) {
	if !idShape.MatchString(id) {
		return store.Bundle{}, notFound("No public bundle has that id.")
	}
	b, err := s.store.GetBundle(ctx, id)
	if err != nil {
		return store.Bundle{}, err
	}
	s.publish(&b)
	return b, nil
}

// publish completes a card for the wire: its absolute api URL from the
// public base URL, and an empty concept list rather than null.
func (s *Server) publish(b *store.Bundle) {
	b.API = s.baseURL + "/api/bundles/" + b.ID
	if b.ConceptList == nil {
		b.ConceptList = []okf.Concept{}
	}
}
