package server

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// undecided lists the rows of a route table that leave a decision unmade:
// a row whose Usage is not one of the counters (the zero value included).
func undecided(rows []Route) []string {
	var errs []string
	for _, r := range rows {
		switch r.Usage {
		case countedAsAPI, countedAsPage, countedAsDoc, countedAsMCP, notCounted:
		default:
			errs = append(errs, fmt.Sprintf("%s %s: no usage decision (Usage %d)", r.Method, r.Path, r.Usage))
		}
	}
	return errs
}

// TestRouteDecisions: every row of the route table decides how its
// requests count (a counter, or notCounted).
func TestRouteDecisions(t *testing.T) {
	for _, err := range undecided((*Server)(nil).routeTable()) {
		t.Error(err)
	}
}

// TestUndecided: the check of TestRouteDecisions refuses the rows it must.
func TestUndecided(t *testing.T) {
	row := func(path string, u usageCounter) Route {
		return Route{Method: http.MethodGet, Path: path, Usage: u}
	}
	for _, tc := range []struct {
		name string
		rows []Route
		want []string
	}{
		{"every choice", []Route{
			row("/api/a", countedAsAPI), row("/", countedAsPage), row("/d", countedAsDoc),
			row("/mcp", countedAsMCP), row("/api/health", notCounted),
		}, nil},
		{"usage unset", []Route{row("/api/new", 0)},
			[]string{"GET /api/new: no usage decision (Usage 0)"}},
		{"usage out of range", []Route{row("/api/new", notCounted+1)},
			[]string{fmt.Sprintf("GET /api/new: no usage decision (Usage %d)", notCounted+1)}},
	} {
		if got := undecided(tc.rows); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
