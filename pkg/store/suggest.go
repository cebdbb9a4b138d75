package store

import "context"

// MaxSuggestions is the most queries Suggest returns.
const MaxSuggestions = 3

// Suggest returns up to MaxSuggestions names or repository names of live
// bundles within a small edit distance of q (trigram similarity), closest
// first, none equal to q: what "did you mean" offers when a search with q
// finds few bundles.
func (s *Store) Suggest(ctx context.Context, q string) ([]string, error) {
	return nil, nil // TODO(issue 23): pg_trgm over names
}
