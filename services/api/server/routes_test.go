package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// undecided lists what rows of a route table leave undecided or decide
// twice: a row whose Usage is not one of the counters (the zero value
// included), a tool without its definition or function, and a tool on
// more than one row.
func undecided(rows []Route) []string {
	var errs []string
	toolRow := map[string]string{}
	for _, r := range rows {
		op := r.Method + " " + r.Path
		switch r.Usage {
		case route.CountedAsAPI, route.CountedAsPage, route.CountedAsDoc, route.CountedAsMCP, route.NotCounted:
		default:
			errs = append(errs, fmt.Sprintf("%s: no usage decision (Usage %d)", op, r.Usage))
		}
		if r.Tool == nil {
			continue
		}
		if r.Tool.Def == nil || r.Tool.Call == nil {
			errs = append(errs, fmt.Sprintf("%s: a tool without its definition or function", op))
			continue
		}
		if other, ok := toolRow[r.Tool.Def.Name]; ok {
			errs = append(errs, fmt.Sprintf("%s: tool %s is also on %s", op, r.Tool.Def.Name, other))
		}
		toolRow[r.Tool.Def.Name] = op
	}
	return errs
}

// TestRouteDecisions: every row of the route table decides how its
// requests count (a counter, or route.NotCounted), and each MCP tool sits on
// exactly one row.
func TestRouteDecisions(t *testing.T) {
	rows := (&Server{}).routeTable()
	for _, err := range undecided(rows) {
		t.Error(err)
	}
	// Each capability package checks that its tools sit on its rows
	// (search.TestToolsArePlaced).
}

// TestUndecided: the check of TestRouteDecisions refuses the rows it must.
func TestUndecided(t *testing.T) {
	tool := func(name string) *route.Tool {
		return &route.Tool{Def: &mcp.Tool{Name: name}, Call: func(context.Context, map[string]any) (any, error) { return nil, nil }}
	}
	row := func(path string, u route.Usage, tool *route.Tool) Route {
		return Route{Method: http.MethodGet, Path: path, Usage: u, Tool: tool}
	}
	for _, tc := range []struct {
		name string
		rows []Route
		want []string
	}{
		{"every choice", []Route{
			row("/api/a", route.CountedAsAPI, tool("a")), row("/", route.CountedAsPage, nil), row("/d", route.CountedAsDoc, nil),
			row("/mcp", route.CountedAsMCP, nil), row("/api/health", route.NotCounted, nil),
		}, nil},
		{"usage unset", []Route{row("/api/new", 0, nil)},
			[]string{"GET /api/new: no usage decision (Usage 0)"}},
		{"usage out of range", []Route{row("/api/new", route.NotCounted+1, nil)},
			[]string{fmt.Sprintf("GET /api/new: no usage decision (Usage %d)", route.NotCounted+1)}},
		{"a tool on two rows", []Route{row("/api/a", route.CountedAsAPI, tool("a")), row("/api/b", route.CountedAsAPI, tool("a"))},
			[]string{"GET /api/b: tool a is also on GET /api/a"}},
		{"a tool with no function", []Route{row("/api/a", route.CountedAsAPI, &route.Tool{Def: &mcp.Tool{Name: "a"}})},
			[]string{"GET /api/a: a tool without its definition or function"}},
	} {
		if got := undecided(tc.rows); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
