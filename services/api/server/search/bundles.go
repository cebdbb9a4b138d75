package search

import (
	"context"
	"regexp"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/cardmarkdown"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// idShape is the shape of every bundle id (source.MaxIDLen characters at most).
var idShape = regexp.MustCompile(`^[a-z0-9-]{1,` + strconv.Itoa(source.MaxIDLen) + `}$`)

// searchBundles answers GET /api/bundles: a page of live bundles.
func (s *Service) searchBundles(c echo.Context) error {
	page, err := s.searchEncoded(c.Request().Context(), c.Request().URL.RawQuery)
	if err != nil {
		return err
	}
	return writeEncoded(c, page, respond.CacheSearch)
}

// Page is the page of a validated search (ParseSearch).
//
// The list ends at resultCap: a page at or past it is empty, and a page
// crossing it is cut there; either way next_offset is null. Whether a next
// page exists is known without counting (see searchMore). next carries the
// cursor of the page's last bundle beside next_offset, so that following it
// seeks instead of counting (store/cursor.go).
func (s *Service) Page(ctx context.Context, p store.SearchParams) (wire.Page, error) {
	page := wire.Page{Items: []wire.Card{}, Limit: p.Limit, Offset: p.Offset}
	want := min(p.Limit, resultCap-p.Offset) // bundles this page may hold
	if want <= 0 {
		return page, nil
	}
	items, more, err := s.searchMore(ctx, p, want, p.Offset+want < resultCap)
	if err != nil {
		return wire.Page{}, err
	}
	full := 0 // bundles holding every word of q
	for _, b := range items {
		if !b.Partial {
			full++
		}
	}
	if page.DidYouMean, err = s.didYouMean(ctx, p, full, len(items)); err != nil {
		return wire.Page{}, err
	}
	if full == 0 && len(page.DidYouMean) > 0 {
		// No bundle holds every word of q: the page lists what its
		// closest suggestion finds, and says so (corrected_q), as a
		// search engine shows the results of a misspelt word's spelling:
		// when q found nothing, anything the suggestion finds; when q
		// found some, only if a bundle holds every word of the suggestion
		// (else the correction, of a word of another language perhaps,
		// finds no more than q did).
		corrected := p
		corrected.Q = page.DidYouMean[0]
		citems, cmore, err := s.searchMore(ctx, corrected, want, p.Offset+want < resultCap)
		if err != nil {
			return wire.Page{}, err
		}
		if len(citems) > 0 && (len(items) == 0 || !citems[0].Partial) {
			p, page.CorrectedQ = corrected, &corrected.Q
			items, more = citems, cmore
		}
	}
	if more {
		next := p
		next.Offset = p.Offset + want
		next.After = items[want-1].Cursor // "" where only the offset leads on
		url := s.d.BaseURL + "/api/bundles?" + CanonicalQuery(next)
		page.NextOffset, page.Next = &next.Offset, &url
	}
	page.Items = make([]wire.Card, len(items))
	for i, b := range items {
		page.Items[i] = s.Publish(b)
	}
	return page, nil
}

// searchMore returns up to want bundles of p from p.Offset and, when
// mayHaveMore, whether more follow: it asks the store for one bundle more
// than the page, in the same query.
func (s *Service) searchMore(ctx context.Context, p store.SearchParams, want int, mayHaveMore bool) ([]store.Bundle, bool, error) {
	sp := p
	sp.Limit = want
	if mayHaveMore {
		sp.Limit = want + 1
	}
	items, err := s.d.Store.Search(ctx, sp)
	if err != nil || len(items) <= want {
		return items, false, err
	}
	return items[:want], true, nil
}

// getBundle answers GET /api/bundles/{id}: the card of a live or low
// bundle, in JSON from the card cache, or in Markdown.
func (s *Service) getBundle(c echo.Context) error {
	ctx, id := c.Request().Context(), c.Param("id")
	c.Response().Header().Add("Vary", "Accept")
	if cardmarkdown.PrefersMarkdown(c.Request().Header.Get("Accept")) {
		b, err := s.bundle(ctx, id)
		if err != nil {
			return err
		}
		return respond.Conditional(c, respond.MIMEMarkdown, []byte(cardmarkdown.Card(b)), b.UpdatedAt.Time, respond.CacheCard)
	}
	card, err := s.cardEncoded(ctx, id)
	if err != nil {
		return err
	}
	return writeEncoded(c, card, respond.CacheCard)
}

// bundle returns the published card of id; the REST route and the
// get_bundle tool both answer with it. An id that cannot be a bundle id is
// a 404 without a database read.
func (s *Service) bundle(ctx context.Context, id string) (wire.Card, error) {
	if !idShape.MatchString(id) {
		return wire.Card{}, apierror.New(apierror.NotFound, "No public bundle has that id.")
	}
	b, err := s.d.Store.GetBundle(ctx, id)
	if err != nil {
		return wire.Card{}, err
	}
	return s.Publish(b), nil
}

// Publish is the card of a stored bundle as the API answers it, with its
// absolute api URL from the public base URL.
func (s *Service) Publish(b store.Bundle) wire.Card {
	c := b.Card
	c.API = s.d.BaseURL + "/api/bundles/" + c.ID
	return c
}

// fewResults is the count of items below which the first page of a search
// with q offers did_you_mean.
const fewResults = 3

// didYouMean is what the page of p offers in place of its q when its first
// page (offset 0, no cursor) holds fewer than fewResults bundles holding
// every word of q, full of its listed ones (words are optional, so a typo
// among other words still finds bundles holding the others:
// store.Bundle.Partial): the store's suggestions (store.Suggest: names and
// repository names a few edits from q, and, when no listed bundle holds
// every word, the words of q that no bundle holds corrected to words of
// names). The other parameters stay as they are; a suggestion is a new q
// for the same search.
//
// It is part of the page's computation, so the page cache keeps it with the
// page and drops it with the page when a bundle is written. It fails soft: a
// suggestion is a nicety, so when Suggest fails (a timeout, the database)
// the page is answered without one and the failure logged at warn; only a
// request that went away fails the page, as its search would.
func (s *Service) didYouMean(ctx context.Context, p store.SearchParams, full, listed int) ([]string, error) {
	if p.Q == "" || p.Offset != 0 || p.After != "" || full >= fewResults {
		return nil, nil
	}
	found := store.FoundAll
	switch {
	case listed == 0:
		found = store.FoundNone
	case full == 0:
		found = store.FoundSome
	}
	suggestions, err := s.d.Store.Suggest(ctx, p.Q, found)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		s.d.Log.WarnContext(ctx, "search: did_you_mean left out", "err", err)
		return nil, nil
	}
	return suggestions, nil
}

// ValidID reports whether id can be a bundle id; one that cannot is a 404
// without a database read.
func ValidID(id string) bool { return idShape.MatchString(id) }
