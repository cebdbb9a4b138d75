package search

import (
	"context"
	"errors"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// getStats answers GET /api/stats. A base deployment answers the five base
// keys (wire.BaseIndexStats, contract 2.6); a full deployment answers all
// eight, the same document as GET /api/okf/stats, since the contract gives
// both paths the IndexStats of the deployment's variant.
func (s *Service) getStats(c echo.Context) error {
	st, err := s.Stats(c.Request().Context())
	if err != nil {
		return err
	}
	return respond.JSONConditional(c, st, statsModified(st), respond.CacheStats)
}

// stats returns the IndexStats of the deployment's variant; GET /api/stats
// and the index_stats tool both answer with it.
func (s *Service) Stats(ctx context.Context) (any, error) {
	st, err := s.d.Store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if !s.d.Full {
		return st.Base(), nil
	}
	return st, nil
}

// getOKFStats answers GET /api/okf/stats [full only] with every facet.
func (s *Service) getOKFStats(c echo.Context) error {
	st, err := s.d.Store.Stats(c.Request().Context())
	if err != nil {
		return err
	}
	return respond.JSONConditional(c, st, statsModified(st), respond.CacheStats)
}

// statsModified is the Last-Modified of statistics: their last_update.
func statsModified(st any) time.Time {
	var last *wire.Timestamp
	switch v := st.(type) {
	case wire.IndexStats:
		last = v.LastUpdate
	case wire.BaseIndexStats:
		last = v.LastUpdate
	}
	if last == nil {
		return time.Time{}
	}
	return last.Time
}

// Facets returns every facet of the index for the page's filters and
// charts; a base deployment fills only its own.
func (s *Service) Facets(ctx context.Context) (wire.IndexStats, error) {
	st, err := s.Stats(ctx)
	if err != nil {
		return wire.IndexStats{}, err
	}
	switch st := st.(type) {
	case wire.IndexStats:
		return st, nil
	case wire.BaseIndexStats:
		return wire.IndexStats{Total: st.Total, ByOrigin: st.ByOrigin, ByVersion: st.ByVersion,
			ByLanguage: st.ByLanguage, LastUpdate: st.LastUpdate}, nil
	}
	return wire.IndexStats{}, errors.New("search: statistics of an unknown shape")
}
