package githubtest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	graphql "github.com/graph-gophers/graphql-go"
	gqlerrors "github.com/graph-gophers/graphql-go/errors"
)

//go:embed schema.graphql
var schemaSDL string

// SchemaSDL returns the GraphQL schema the server implements: a subset of
// GitHub's public schema.
func SchemaSDL() string { return schemaSDL }

func mustSchema(s *Server) *graphql.Schema {
	return graphql.MustParseSchema(schemaSDL, &query{s: s}, graphql.MaxParallelism(16))
}

type graphQLRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// ghError is a resolver error with GitHub's top-level "type" (NOT_FOUND,
// EXCESSIVE_PAGINATION, ...).
type ghError struct {
	Type    string
	Message string
}

func (e *ghError) Error() string { return e.Message }

// errorOut is one entry of GitHub's "errors" array.
type errorOut struct {
	Type       string               `json:"type,omitempty"`
	Code       string               `json:"code,omitempty"`
	Path       []any                `json:"path,omitempty"`
	Extensions map[string]any       `json:"extensions,omitempty"`
	Locations  []gqlerrors.Location `json:"locations,omitempty"`
	Message    string               `json:"message"`
}

type responseOut struct {
	Data   json.RawMessage `json:"data,omitempty"`
	Errors []errorOut      `json:"errors,omitempty"`
}

type costKey struct{}

// callCost is what rateLimit reports for the current call.
type callCost struct {
	cost, nodes int
	after       budget
}

var dryRunRe = regexp.MustCompile(`dryRun\s*:\s*true`)

// serveGraphQL validates, charges, executes, and writes GitHub's shapes.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	var req graphQLRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Query == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{
			"message": "Problems parsing JSON", "documentation_url": "https://docs.github.com/graphql"})
		return
	}
	if errs := s.schema.ValidateWithVariables(req.Query, req.Variables); len(errs) > 0 {
		writeJSON(w, http.StatusOK, responseOut{Errors: shapeErrors(errs)})
		return
	}
	cost, nodes := QueryCost(req.Query, req.Variables)
	if nodes > 500000 {
		writeJSON(w, http.StatusOK, responseOut{Errors: []errorOut{{Type: "MAX_NODE_LIMIT_EXCEEDED",
			Message: fmt.Sprintf("This query requests up to %d possible nodes which exceeds the maximum limit of 500,000.", nodes)}}})
		return
	}
	b, ok := s.chargeGraphQL(cost, dryRunRe.MatchString(req.Query))
	setLimitHeaders(w, b, "graphql")
	if !ok {
		writeJSON(w, http.StatusOK, responseOut{Errors: []errorOut{{Type: s.opts.RateLimitedType,
			Code: "graphql_rate_limit", Message: "API rate limit already exceeded for user ID 1."}}})
		return
	}
	if !dryRunRe.MatchString(req.Query) {
		entryOf(r.Context()).Cost = cost
	}
	ctx := context.WithValue(r.Context(), costKey{}, callCost{cost: cost, nodes: nodes, after: b})
	resp := s.schema.Exec(ctx, req.Query, req.OperationName, req.Variables)
	errs := shapeErrors(resp.Errors)
	for i := range errs {
		if errs[i].Locations == nil && len(errs[i].Path) == 1 {
			errs[i].Locations = locateField(req.Query, fmt.Sprint(errs[i].Path[0]))
		}
	}
	writeJSON(w, http.StatusOK, responseOut{Data: resp.Data, Errors: errs})
}

// locateField finds where a top-level field or alias appears in the query
// text (graphql-go leaves resolver errors without locations; GitHub sets them).
func locateField(query, name string) []gqlerrors.Location {
	re, err := regexp.Compile(`(^|[^\w$])` + regexp.QuoteMeta(name) + `\s*[:(]`)
	if err != nil {
		return nil
	}
	m := re.FindStringSubmatchIndex(query)
	if m == nil {
		return nil
	}
	at := m[3] // end of the leading boundary group = start of the name
	line := 1 + strings.Count(query[:at], "\n")
	col := at - strings.LastIndex(query[:at], "\n")
	return []gqlerrors.Location{{Line: line, Column: col}}
}

var undefinedFieldRe = regexp.MustCompile(`^Cannot query field "(\w+)" on type "(\w+)"\.`)

// shapeErrors turns graphql-go errors into GitHub's error entries.
func shapeErrors(errs []*gqlerrors.QueryError) []errorOut {
	var out []errorOut
	for _, e := range errs {
		o := errorOut{Path: e.Path, Locations: e.Locations, Message: e.Message}
		var ge *ghError
		if errors.As(e.ResolverError, &ge) {
			o.Type, o.Message = ge.Type, ge.Message
		} else if m := undefinedFieldRe.FindStringSubmatch(e.Message); m != nil {
			o.Message = fmt.Sprintf("Field '%s' doesn't exist on type '%s'", m[1], m[2])
			o.Extensions = map[string]any{"code": "undefinedField", "typeName": m[2], "fieldName": m[1]}
		} else if e.Rule != "" {
			o.Extensions = map[string]any{"code": e.Rule}
		}
		out = append(out, o)
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
