package server

import "context"

// partnersStats is the stats block of GET /api/partners: the excerpt of the
// public usage projection (GET /api/vitrine) with its link. It is the one
// place the partners answer reads usage numbers. Before the first
// publication it is only {publicado: false, link}, as the projection itself
// then carries only its five keys.
func (s *Server) partnersStats(ctx context.Context) (any, error) {
	ex, err := s.vitrine.Excerpt(ctx)
	if err != nil || !ex.Publicado {
		return map[string]any{"publicado": false, "link": ex.Link}, err
	}
	return ex, nil
}
