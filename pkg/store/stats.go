package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// MaxFacetEntries is the longest facet list of wire.IndexStats (contract 8).
const MaxFacetEntries = 12

// Facet names in bundle_facets (db/migrations/0002_stats.sql).
const (
	facetTotal    = "total"
	facetOrigin   = "origin"
	facetVersion  = "version"
	facetType     = "type"
	facetConcepts = "concepts"
	facetLicense  = "license"
	facetLanguage = "language"
)

// statsSQL reads the top entries of every facet from bundle_facets, through
// its (facet, n DESC, value) index: a few index probes whatever the number of
// bundles or of distinct values.
const statsSQL = `
SELECT f.facet, t.value, t.n
FROM unnest($1::text[]) AS f (facet)
CROSS JOIN LATERAL (
	SELECT value, n FROM bundle_facets
	WHERE facet = f.facet AND n > 0
	ORDER BY n DESC, value
	LIMIT $2
) AS t`

// lastUpdateSQL is the newest updated_at of live bundles: one probe of the
// bundles_live_updated index.
const lastUpdateSQL = `SELECT max(updated_at) FROM bundles WHERE visibility = 'live'`

// Stats reads the kept statistics summary.
//
// Facet lists are never nil, hold at most MaxFacetEntries entries, most
// common first (ties by value). ByConcepts lists the five ConceptBands in
// band order, zeros included; ByOrigin always has both origins. by_license
// counts a bundle without a license as "unknown"; by_language counts only
// repository bundles whose code host reports a language; by_type counts only
// bundles that declare a type.
func (s *Store) Stats(ctx context.Context) (wire.IndexStats, error) {
	st := wire.IndexStats{
		ByOrigin:   map[wire.Origin]int64{wire.OriginCodeHost: 0, wire.OriginDomain: 0},
		ByVersion:  []wire.Facet{},
		ByType:     []wire.Facet{},
		ByConcepts: []wire.Facet{},
		ByLicense:  []wire.Facet{},
		ByLanguage: []wire.Facet{},
	}
	facets := []string{facetTotal, facetOrigin, facetVersion, facetType, facetConcepts, facetLicense, facetLanguage}
	batch := &pgx.Batch{}
	batch.Queue(statsSQL, facets, MaxFacetEntries)
	batch.Queue(lastUpdateSQL)
	br := s.read.SendBatch(ctx, batch)
	defer br.Close()

	rows, err := br.Query()
	if err != nil {
		return wire.IndexStats{}, fmt.Errorf("store: stats: %w", err)
	}
	bands := map[string]int64{}
	for rows.Next() {
		var facet string
		var f wire.Facet
		if err := rows.Scan(&facet, &f.V, &f.N); err != nil {
			rows.Close()
			return wire.IndexStats{}, fmt.Errorf("store: stats: %w", err)
		}
		switch facet {
		case facetTotal:
			st.Total = f.N
		case facetOrigin:
			st.ByOrigin[wire.Origin(f.V)] = f.N
		case facetVersion:
			st.ByVersion = append(st.ByVersion, f)
		case facetType:
			st.ByType = append(st.ByType, f)
		case facetConcepts:
			bands[f.V] = f.N
		case facetLicense:
			st.ByLicense = append(st.ByLicense, f)
		case facetLanguage:
			st.ByLanguage = append(st.ByLanguage, f)
		}
	}
	if err := rows.Err(); err != nil {
		return wire.IndexStats{}, fmt.Errorf("store: stats: %w", err)
	}
	for _, b := range ConceptBands {
		st.ByConcepts = append(st.ByConcepts, wire.Facet{V: b, N: bands[b]})
	}
	var last *time.Time
	if err := br.QueryRow().Scan(&last); err != nil {
		return wire.IndexStats{}, fmt.Errorf("store: stats: last update: %w", err)
	}
	if last != nil {
		st.LastUpdate = &wire.Timestamp{Time: last.UTC()}
	}
	return st, nil
}

// RecountStats rebuilds the statistics summary from the bundles table.
//
// The triggers keep the summary exact; a periodic recount also drops the
// zero counts of values no live bundle has any more. It scans every bundle
// once (about 5 s at a million bundles on two cores), and writers wait for it
// (their counter updates queue behind its lock), while Stats keeps
// answering.
func (s *Store) RecountStats(ctx context.Context) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `SELECT okf_recount_facets()`)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: recount stats: %w", err)
	}
	return nil
}
