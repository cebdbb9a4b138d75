package store

import (
	"errors"

	"github.com/okfindex/okf-index/pkg/wire"
)

// ErrNotFound is returned when a bundle does not exist or is not public.
var ErrNotFound = errors.New("store: not found")

// ErrSearchTimeout is returned when a search ran past the read timeout
// (Config.ReadTimeout): a query too costly to answer (its words exclude
// each other, say), not a fault of the service.
var ErrSearchTimeout = errors.New("store: search took too long")

// ConceptBands are the bands of wire.IndexStats.ByConcepts and of the concepts
// filter, in order.
var ConceptBands = []string{"0", "1-5", "6-20", "21-100", "101+"}

// Bundle is a card as the store keeps it: the published card and the
// bundle's visibility, which the card does not show.
type Bundle struct {
	wire.Card
	Visibility wire.Visibility `json:"-"`
	// Cursor is set by Search: the SearchParams.After that continues the
	// search after this bundle, or "" where only Offset does (cursor.go).
	Cursor string `json:"-"`
	// Partial is set by Search with q on a bundle that holds some of q's
	// terms but not all of them (words are optional: search.go), or whose
	// only word the word being typed begins is in its description or
	// concepts (widens).
	Partial bool `json:"-"`
	// Imported is set by GetBundle: the bundle entered, or last changed,
	// through okfctl import (BundleInput.Imported), not the sweep or a ping.
	Imported bool `json:"-"`
}

// BundleInput is one parsed bundle to write: its card as the indexer made
// it. The store sets indexed_at and updated_at and the API sets api, so
// the card's IndexedAt, UpdatedAt and API are not written.
type BundleInput struct {
	wire.Card // Repo is nil for domain bundles
	// RootSHA256 is the hex SHA-256 of the raw root bytes. Bundles with equal
	// roots are exact duplicates: the earliest indexed stays live, the others
	// are low.
	RootSHA256 string
	// Low is true when the path marks an example or fixture (source.Repo.Low).
	Low bool
	// Imported is true when okfctl import writes it: an operator's copy of
	// a repository, written through the sweep's path (source.via "sweep").
	Imported bool
}

// UpsertResult says what a write did.
type UpsertResult struct {
	ID      string
	Created bool // the bundle was new
	Changed bool // indexed content changed, so updated_at moved (true when Created)
	// Visibility is the bundle's visibility after the write.
	Visibility wire.Visibility
}

// SearchParams is a validated bundle search (contract 4.1): the API's
// parseSearch makes one from a query string, and Search takes its values as
// they are. Any other caller builds it to the same rules:
//
//   - Empty fields do not filter; the zero value is every live bundle,
//     newest first, DefaultLimit of them.
//   - Q and Concept are trimmed of spaces ("" for none).
//   - Origin is "" or one of wire's origins (the API reads the alias
//     "github" as wire.OriginCodeHost).
//   - Repo is a lowercase owner/repo, as the bundles table keeps it.
//   - List values are trimmed and not blank; ConceptBands are values of
//     ConceptBands. Languages and licenses match case-insensitively.
//   - Sort is "" (recent) or one of wire's sorts; wire.SortRelevance only
//     with a Q (Search refuses it without one; the API orders it as recent).
//   - Limit and Offset are bounded by Search (see there).
type SearchParams struct {
	Q            string
	Origin       wire.Origin
	Repo         string
	Versions     []string // okf_version values
	Languages    []string // repository languages
	Concept      string   // text within the indexed root content [full]
	ConceptBands []string // [full]
	Types        []string // root-declared types [full]
	Licenses     []string // repository licenses [full]
	Sort         wire.Sort
	Limit        int // 1..MaxLimit+1; 0 means DefaultLimit
	Offset       int // 0..MaxOffset; past it the search is empty
	// After, when set, is a Bundle.Cursor of an earlier page of the same
	// sort (CheckCursor): the page starts after that bundle, and Offset
	// only bounds the list at MaxOffset.
	After string
}
