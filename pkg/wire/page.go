package wire

// Page is the answer of a search, GET /api/bundles (contract 2.5). Items is
// never nil.
type Page struct {
	Items      []Card  `json:"items"`
	Limit      int     `json:"limit"`
	Offset     int     `json:"offset"`
	NextOffset *int    `json:"next_offset"` // nil on the last page and past the 1000 cap
	Next       *string `json:"next"`        // absolute URL of the next page, nil when NextOffset is
	// DidYouMean are queries close to q (names and repository names within
	// a small edit distance), offered when a search with q finds few
	// bundles on its first page; absent otherwise.
	DidYouMean []string `json:"did_you_mean,omitempty"`
	// CorrectedQ is the q whose bundles the page lists, when no bundle of
	// q's first page held every word of q and its first did_you_mean found
	// bundles (when q found some, one holding every word of it): the items,
	// next and next_offset are that q's. Absent otherwise.
	CorrectedQ *string `json:"corrected_q,omitempty"`
}

// Sort is the order of a search (contract 4.1, plus the relevance
// extension).
type Sort string

// The sorts.
const (
	SortRecent    Sort = "recent" // arrival, newest first; the default
	SortUpdated   Sort = "updated"
	SortName      Sort = "name"
	SortStars     Sort = "stars"
	SortRelevance Sort = "relevance" // ranked against the text query
)
