package server

import (
	"context"

	"github.com/okfindex/okf-index/pkg/store"
)

// fewResults is the count of items below which the first page of a search
// with q offers did_you_mean.
const fewResults = 3

// didYouMean is what the page of p offers in place of its q when its first
// page (offset 0, no cursor) holds fewer than fewResults bundles holding
// every word of q, found of them (words are optional, so a typo among other
// words still finds bundles holding the others: store.Bundle.Partial): the store's suggestions (store.Suggest: names and repository names a
// few edits from q). The other parameters stay as they are; a suggestion is
// a new q for the same search.
//
// It is part of the page's computation, so the page cache keeps it with the
// page and drops it with the page when a bundle is written. It fails soft: a
// suggestion is a nicety, so when Suggest fails (a timeout, the database)
// the page is answered without one and the failure logged at warn; only a
// request that went away fails the page, as its search would.
func (s *Server) didYouMean(ctx context.Context, p store.SearchParams, found int) ([]string, error) {
	if p.Q == "" || p.Offset != 0 || p.After != "" || found >= fewResults {
		return nil, nil
	}
	suggestions, err := s.store.Suggest(ctx, p.Q)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		s.log.WarnContext(ctx, "search: did_you_mean left out", "err", err)
		return nil, nil
	}
	return suggestions, nil
}
