package search

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
	"github.com/okfindex/okf-index/services/api/server/query"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// toolSet holds the tools of the read routes, for Routes to place each on
// its route's row; tools/list answers every tool in the order of their
// rows. TestToolsArePlaced checks that each is placed. A tool calls the same function as its route and takes its
// schemas from the route's operation in api/openapi.json.
type toolSet struct {
	SearchBundles, GetBundle, IndexStats *route.Tool
}

// The most bytes of a search item (a card and its snippet) and of what a
// page adds to its items: the answer bounds of the tools, which hold them
// twice (a result is structured content and text).
const (
	maxItemBytes      = cardsize.MaxCardBytes + 4<<10
	pageOverheadBytes = 4 << 10
)

// tools defines the tools. Schemas are filled in by mcpserver.New.
func (s *Service) tools() toolSet {
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	return toolSet{
		SearchBundles: &route.Tool{Def: &mcp.Tool{
			Name:  "search_bundles",
			Title: "Search OKF bundles",
			Description: "Search the live OKF bundles. Every argument is optional and mirrors a query parameter of " +
				"GET /api/bundles; lists are comma-separated strings. Answers a page {items, limit, offset, " +
				"next_offset, next, did_you_mean?, corrected_q?}: each item is a bundle card whose id get_bundle takes, with a " +
				"snippet {field, text, highlights} of the passage q matched when q is given. To read further, call " +
				"again with offset set to next_offset until it is null; the list ends at 1000 results. When q " +
				"finds fewer than 3 bundles holding all its words, did_you_mean offers close names to search for instead; " +
				"when none holds them all, it may also offer q with the words no bundle holds corrected, and the page " +
				"lists what the first suggestion finds (when q found nothing, or a bundle holds every word of the " +
				"suggestion) and corrected_q says so. q may be a " +
				"question in any words: word forms and accents do not matter, a language's name (\"german\", " +
				"\"portuguese\") finds the bundles written in it, and with sort=relevance the bundles holding most " +
				"of its words come first.",
			Annotations: read,
		}, Call: func(ctx context.Context, args map[string]any) (any, error) {
			q, err := mcpserver.QueryOf(args)
			if err != nil {
				return nil, err
			}
			return toolAnswer(s.searchEncoded(ctx, q))
		}, AnswerBound: func(args map[string]any) int64 {
			n := store.DefaultLimit
			if limit, ok := args["limit"].(string); ok {
				n, _ = query.WholeNumber(limit, store.MaxLimit)
			}
			return 2 * (int64(n)*maxItemBytes + pageOverheadBytes)
		}},
		GetBundle: &route.Tool{Def: &mcp.Tool{
			Name:  "get_bundle",
			Title: "Get one bundle's card",
			Description: "Fetch one bundle's card by its id (the id of a search_bundles item): name, tagline, " +
				"description, okf_version, concepts, source and repository signals. Bundles kept out of search " +
				"(visibility low) answer too. The same JSON as GET /api/bundles/{id}; an unknown id is a not_found error.",
			Annotations: read,
		}, Call: func(ctx context.Context, args map[string]any) (any, error) {
			id, ok := args["id"].(string)
			if !ok { // a path parameter: the route always has one
				return nil, apierror.Parameter("id", "id is required: the id of a bundle, as search_bundles gives it.")
			}
			return toolAnswer(s.cardEncoded(ctx, id))
		}, AnswerBound: func(map[string]any) int64 { return 2 * (maxItemBytes + pageOverheadBytes) }},
		IndexStats: &route.Tool{Def: &mcp.Tool{
			Name:  "index_stats",
			Title: "Index statistics",
			Description: "Count the live bundles in total and by origin, okf_version and repository language " +
				"(and, on the full variant, by type, concept band and license), with the newest update time. " +
				"The same JSON as GET /api/stats. Takes no arguments.",
			Annotations: read,
		}, Call: func(ctx context.Context, _ map[string]any) (any, error) { return s.Stats(ctx) }},
	}
}
