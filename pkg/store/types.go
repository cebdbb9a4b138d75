package store

import (
	"errors"
	"time"

	"github.com/okfindex/okf-index/pkg/okf"
)

// ErrNotFound is returned when a bundle does not exist or is not public.
var ErrNotFound = errors.New("store: not found")

// ErrSearchTimeout is returned when a search ran past ReadTimeout: a query
// too costly to answer (its words exclude each other, say), not a fault of
// the service.
var ErrSearchTimeout = errors.New("store: search took too long")

// Visibility of a bundle (DESIGN.md): live bundles are searched; low ones
// answer on their card only; hidden ones answer nowhere.
const (
	VisibilityLive   = "live"
	VisibilityLow    = "low"
	VisibilityHidden = "hidden"
)

// Sort orders of a search (contract 4.1, plus the relevance extension).
const (
	SortRecent    = "recent"
	SortUpdated   = "updated"
	SortName      = "name"
	SortStars     = "stars"
	SortRelevance = "relevance"
)

// ConceptBands are the bands of IndexStats.ByConcepts and of the concepts
// filter, in order.
var ConceptBands = []string{"0", "1-5", "6-20", "21-100", "101+"}

// Timestamp is a UTC time that encodes as "YYYY-MM-DD HH:MM:SS" in JSON.
type Timestamp struct{ time.Time }

// TimestampLayout is the contract's time format.
const TimestampLayout = "2006-01-02 15:04:05"

// MarshalJSON encodes the time in the contract's layout, in UTC.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format(TimestampLayout) + `"`), nil
}

// UnmarshalJSON decodes the contract's layout.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return errors.New("store: timestamp must be a JSON string")
	}
	v, err := time.Parse(TimestampLayout, string(b[1:len(b)-1]))
	if err != nil {
		return err
	}
	t.Time = v
	return nil
}

// BundleSource is the provenance of a bundle (contract 2.3).
type BundleSource struct {
	Origin string  `json:"origin"` // source.OriginCodeHost or source.OriginDomain
	Via    string  `json:"via"`    // source.ViaSweep or source.ViaIndexNow
	URL    string  `json:"url"`
	Host   string  `json:"host"`
	Repo   *string `json:"repo"` // lowercase owner/repo; nil for domain bundles
	Dir    string  `json:"dir"`
	Path   string  `json:"path"`
}

// RepoSignal is what the code host says of a bundle's repository (contract 2.4).
type RepoSignal struct {
	Stars    int        `json:"stars"`
	Forks    int        `json:"forks"`
	PushedAt *Timestamp `json:"pushed_at"`
	State    *string    `json:"state"`
	Language *string    `json:"language"`
	License  *string    `json:"license"`
}

// Bundle is a bundle card as the API publishes it (contract 2.1).
type Bundle struct {
	ID string `json:"id"`
	okf.Card
	IndexURL  string       `json:"index_url"`
	PageURL   string       `json:"page_url"`
	Source    BundleSource `json:"source"`
	Repo      *RepoSignal  `json:"repo"`
	IndexedAt Timestamp    `json:"indexed_at"`
	UpdatedAt Timestamp    `json:"updated_at"`
	// API is the absolute URL of this card; the API fills it from its
	// configured public base URL. The store leaves it empty.
	API string `json:"api"`

	Visibility string `json:"-"`
}

// BundleInput is one parsed bundle to write.
type BundleInput struct {
	ID       string
	Card     okf.Card
	IndexURL string
	PageURL  string
	Source   BundleSource
	Repo     *RepoSignal // nil for domain bundles
	// RootSHA256 is the hex SHA-256 of the raw root bytes. Bundles with equal
	// roots are exact duplicates: the earliest indexed stays live, the others
	// are low.
	RootSHA256 string
	// Low is true when the path marks an example or fixture (source.Repo.Low).
	Low bool
}

// UpsertResult says what a write did.
type UpsertResult struct {
	ID      string
	Created bool // the bundle was new
	Changed bool // indexed content changed, so updated_at moved (true when Created)
	// Visibility is the bundle's visibility after the write.
	Visibility string
}

// SearchParams is a validated bundle search (contract 4.1). Empty fields do
// not filter. The API validates limits before calling Search.
type SearchParams struct {
	Q            string
	Origin       string   // "", source.OriginCodeHost or source.OriginDomain
	Repo         string   // lowercase owner/repo
	Versions     []string // okf_version values
	Languages    []string // repository languages, matched case-insensitively
	Concept      string   // text within the indexed root content [full]
	ConceptBands []string // values of ConceptBands [full]
	Types        []string // root-declared types [full]
	Licenses     []string // repository licenses, matched case-insensitively [full]
	Sort         string   // one of the Sort* constants; "" means recent
	Limit        int      // 1..100
	Offset       int      // 0..1000
}

// Facet is one value of a statistics facet and its live bundle count.
type Facet struct {
	V string `json:"v"`
	N int64  `json:"n"`
}

// IndexStats are the full variant's statistics (contract 2.6). Facet lists
// are never nil and hold at most 12 entries, most common first.
type IndexStats struct {
	Total      int64            `json:"total"`
	ByOrigin   map[string]int64 `json:"by_origin"` // always both origins
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
	ByOrigin   map[string]int64 `json:"by_origin"`
	ByVersion  []Facet          `json:"by_version"`
	ByLanguage []Facet          `json:"by_language"`
	LastUpdate *Timestamp       `json:"last_update"`
}

// Base returns the base variant's subset of the statistics.
func (s IndexStats) Base() BaseIndexStats {
	return BaseIndexStats{s.Total, s.ByOrigin, s.ByVersion, s.ByLanguage, s.LastUpdate}
}
