package billing

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/services/api/server/route"
)

// PriceRoutes are the rows of the price and payment documents, with the
// MCP tools that mirror them.
func (s *Service) PriceRoutes() []route.Route {
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/pricing", Summary: "What is free, what is paid, and list prices", Full: true,
			Handler: s.getPricing, Usage: route.CountedAsAPI, Tool: &route.Tool{Def: &mcp.Tool{
				Name:  "pricing",
				Title: "Prices and quota",
				Description: "What is free and what is paid on this deployment, with list prices in USD and how to pay. " +
					"The same JSON as GET /api/pricing. Takes no arguments.",
				Annotations: read,
			}, Call: func(context.Context, map[string]any) (any, error) { return s.Pricing(), nil }}},
		{Method: http.MethodGet, Path: "/api/billing", Summary: "How to pay: x402 configuration and prepaid credit", Full: true,
			Handler: s.getBilling, Usage: route.CountedAsAPI, Tool: &route.Tool{Def: &mcp.Tool{
				Name:  "billing",
				Title: "Payment configuration",
				Description: "How to pay on this deployment: the x402 payment configuration (network, asset, receiving " +
					"address, facilitator) and where to buy prepaid credit, with the pricing and quota. The same JSON as " +
					"GET /api/billing. Takes no arguments.",
				Annotations: read,
			}, Call: func(context.Context, map[string]any) (any, error) { return s.Document(), nil }}},
	}
}

// CreditRoutes are the rows of prepaid credit: buy a package, read a
// balance.
func (s *Service) CreditRoutes() []route.Route {
	return []route.Route{
		{Method: http.MethodPost, Path: "/api/credito", Summary: "Buy prepaid credit with x402", Full: true,
			Handler: s.postCredit, Usage: route.CountedAsAPI},
		{Method: http.MethodGet, Path: "/api/credito", Summary: "Balance and movements of a credit token", Full: true,
			Handler: s.getCredit, Usage: route.CountedAsAPI, Credentials: route.TakesCredit},
	}
}
