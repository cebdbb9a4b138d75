package api

import (
	"encoding/json"
	"testing"
)

// TestOptionalQueryParametersAllowEmpty: the service reads an empty query
// value as the parameter left out (docs/decisions.md, "Search parameters"),
// on every route. A parameter the document declares without
// allowEmptyValue makes `?limit=` a request the document refuses and the
// service answers 200: the failure TestHTTPFuzz found on GET /api/changes
// (OKF_HTTP_FUZZ_SEED=1795700174610863868). Required parameters are
// refused empty by both.
func TestOptionalQueryParametersAllowEmpty(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				Parameters []struct {
					Name            string `json:"name"`
					In              string `json:"in"`
					Required        bool   `json:"required"`
					AllowEmptyValue bool   `json:"allowEmptyValue"`
					Ref             string `json:"$ref"`
				} `json:"parameters"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue // not an operation (a path-level field)
			}
			for _, p := range op.Parameters {
				if p.Ref != "" {
					t.Errorf("%s %s: a $ref parameter; this test reads inline ones", method, path)
				}
				if p.In != "query" || p.Required || method == "post" {
					continue
				}
				checked++
				if !p.AllowEmptyValue {
					t.Errorf("%s %s: optional query parameter %q lacks allowEmptyValue: true", method, path, p.Name)
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d optional query parameters checked", checked)
	}
}
