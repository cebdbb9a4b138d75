package server

import "context"

// partnersStats is the stats block of GET /api/partners: an excerpt of the
// public usage projection (GET /api/vitrine) with its link. It is the one
// place the partners answer reads usage numbers, so that wiring in the
// projection's excerpt changes this function only. Until the projection is
// published it is the unpublished form the contract gives:
// {publicado: false, link}.
func (s *Server) partnersStats(_ context.Context) (map[string]any, error) {
	return map[string]any{"publicado": false, "link": s.baseURL + "/api/vitrine"}, nil
}
