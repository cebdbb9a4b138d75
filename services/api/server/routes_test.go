package server

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
		case countedAsAPI, countedAsPage, countedAsDoc, countedAsMCP, notCounted:
		default:
			errs = append(errs, fmt.Sprintf("%s: no usage decision (Usage %d)", op, r.Usage))
		}
		if r.Tool == nil {
			continue
		}
		if r.Tool.tool == nil || r.Tool.call == nil {
			errs = append(errs, fmt.Sprintf("%s: a tool without its definition or function", op))
			continue
		}
		if other, ok := toolRow[r.Tool.tool.Name]; ok {
			errs = append(errs, fmt.Sprintf("%s: tool %s is also on %s", op, r.Tool.tool.Name, other))
		}
		toolRow[r.Tool.tool.Name] = op
	}
	return errs
}

// TestRouteDecisions: every row of the route table decides how its
// requests count (a counter, or notCounted), and each MCP tool sits on
// exactly one row.
func TestRouteDecisions(t *testing.T) {
	rows := (*Server)(nil).routeTable()
	for _, err := range undecided(rows) {
		t.Error(err)
	}
	// With no tool on two rows, as many rows with a tool as tools in the
	// set means none is left off.
	placed := 0
	for _, r := range rows {
		if r.Tool != nil {
			placed++
		}
	}
	if n := reflect.TypeFor[mcpToolSet]().NumField(); placed != n {
		t.Errorf("%d rows carry a tool, and mcpToolSet holds %d: place each on its route's row", placed, n)
	}
}

// TestUndecided: the check of TestRouteDecisions refuses the rows it must.
func TestUndecided(t *testing.T) {
	tool := func(name string) *mcpTool {
		return &mcpTool{tool: &mcp.Tool{Name: name}, call: func(context.Context, map[string]any) (any, error) { return nil, nil }}
	}
	row := func(path string, u usageCounter, tool *mcpTool) Route {
		return Route{Method: http.MethodGet, Path: path, Usage: u, Tool: tool}
	}
	for _, tc := range []struct {
		name string
		rows []Route
		want []string
	}{
		{"every choice", []Route{
			row("/api/a", countedAsAPI, tool("a")), row("/", countedAsPage, nil), row("/d", countedAsDoc, nil),
			row("/mcp", countedAsMCP, nil), row("/api/health", notCounted, nil),
		}, nil},
		{"usage unset", []Route{row("/api/new", 0, nil)},
			[]string{"GET /api/new: no usage decision (Usage 0)"}},
		{"usage out of range", []Route{row("/api/new", notCounted+1, nil)},
			[]string{fmt.Sprintf("GET /api/new: no usage decision (Usage %d)", notCounted+1)}},
		{"a tool on two rows", []Route{row("/api/a", countedAsAPI, tool("a")), row("/api/b", countedAsAPI, tool("a"))},
			[]string{"GET /api/b: tool a is also on GET /api/a"}},
		{"a tool with no function", []Route{row("/api/a", countedAsAPI, &mcpTool{tool: &mcp.Tool{Name: "a"}})},
			[]string{"GET /api/a: a tool without its definition or function"}},
	} {
		if got := undecided(tc.rows); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
