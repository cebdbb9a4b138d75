package wire

// Facet is one value of a statistics facet and its live bundle count
// (contract 2.6).
type Facet struct {
	V string `json:"v"`
	N int64  `json:"n"`
}

// IndexStats are the full variant's statistics (contract 2.6). Facet lists
// are never nil and hold at most 12 entries, most common first.
type IndexStats struct {
	Total      int64            `json:"total"`
	ByOrigin   map[Origin]int64 `json:"by_origin"` // always both origins
	ByVersion  []Facet          `json:"by_version"`
	ByType     []Facet          `json:"by_type"`
	ByConcepts []Facet          `json:"by_concepts"` // the five bands, in band order
	ByLicense  []Facet          `json:"by_license"`
	ByLanguage []Facet          `json:"by_language"`
	LastUpdate *Timestamp       `json:"last_update"`
}

// BaseIndexStats are the base variant's statistics: the five base keys.
type BaseIndexStats struct {
	Total      int64            `json:"total"`
	ByOrigin   map[Origin]int64 `json:"by_origin"`
	ByVersion  []Facet          `json:"by_version"`
	ByLanguage []Facet          `json:"by_language"`
	LastUpdate *Timestamp       `json:"last_update"`
}

// Base returns the base variant's subset of the statistics.
func (s IndexStats) Base() BaseIndexStats {
	return BaseIndexStats{s.Total, s.ByOrigin, s.ByVersion, s.ByLanguage, s.LastUpdate}
}
