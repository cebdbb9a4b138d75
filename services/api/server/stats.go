package server

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// getStats answers GET /api/stats. A base deployment answers the five base
// keys (wire.BaseIndexStats, contract 2.6); a full deployment answers all
// eight, the same document as GET /api/okf/stats, since the contract gives
// both paths the IndexStats of the deployment's variant.
func (s *Server) getStats(c echo.Context) error {
	st, err := s.stats(c.Request().Context())
	if err != nil {
		return err
	}
	return respond.JSONConditional(c, st, statsModified(st), respond.CacheStats)
}

// stats returns the IndexStats of the deployment's variant; GET /api/stats
// and the index_stats tool both answer with it.
func (s *Server) stats(ctx context.Context) (any, error) {
	st, err := s.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if !s.full {
		return st.Base(), nil
	}
	return st, nil
}

// getOKFStats answers GET /api/okf/stats [full only] with every facet.
func (s *Server) getOKFStats(c echo.Context) error {
	st, err := s.store.Stats(c.Request().Context())
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
