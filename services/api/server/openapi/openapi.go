// Package openapi publishes the embedded api/openapi.json for a
// deployment: servers set to the public base URL, and the base variant
// without the full variant's operations and parameters.
package openapi

import (
	"encoding/json"
	"strings"

	"github.com/okfindex/okf-index/api"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// VariantKey marks, in api/openapi.json, an operation or a parameter that
// exists only in the full variant.
const VariantKey = "x-variant"

// httpMethods are the operation keys of an OpenAPI path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Published is the document GET /openapi.json answers: the embedded
// api/openapi.json with servers set to the public base URL, and, for a base
// deployment, without the operations and parameters marked x-variant: full
// (a path left with no operation goes too). Computed once at start.
func Published(baseURL string, full bool) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		return nil, err
	}
	doc["servers"] = []any{map[string]any{"url": baseURL}}
	if full {
		addAPIKeyRefusal(doc)
	}
	if !full {
		paths, _ := doc["paths"].(map[string]any)
		for p, item := range paths {
			item, _ := item.(map[string]any)
			if keepBase(item) == 0 {
				delete(paths, p)
			}
		}
		pruneComponents(doc)
	}
	return respond.Marshal(doc)
}

// pruneComponents drops the components no path reaches, directly or through
// other components: those only the full variant's operations use.
func pruneComponents(doc map[string]any) {
	components, _ := doc["components"].(map[string]any)
	reached := map[string]bool{}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				ref, ok := e.(string)
				if k != "$ref" || !ok || reached[ref] {
					visit(e)
					continue
				}
				reached[ref] = true
				section, name, _ := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
				if sec, ok := components[section].(map[string]any); ok {
					visit(sec[name])
				}
			}
		case []any:
			for _, e := range v {
				visit(e)
			}
		}
	}
	visit(doc["paths"])
	for section, entries := range components {
		entries, _ := entries.(map[string]any)
		for name := range entries {
			if !reached["#/components/"+section+"/"+name] {
				delete(entries, name)
			}
		}
	}
}

// keepBase removes the full-only operations and parameters of a path item
// and returns how many operations remain.
func keepBase(item map[string]any) int {
	n := 0
	for _, m := range httpMethods {
		op, ok := item[m].(map[string]any)
		if !ok {
			continue
		}
		if fullOnly(op) {
			delete(item, m)
			continue
		}
		n++
		if params, ok := op["parameters"].([]any); ok {
			kept := params[:0]
			for _, p := range params {
				if pm, _ := p.(map[string]any); !fullOnly(pm) {
					kept = append(kept, p)
				}
			}
			op["parameters"] = kept
		}
	}
	return n
}

func fullOnly(v map[string]any) bool { return v[VariantKey] == "full" }

// Extensions of the account routes: x-cors false marks a session route
// (no CORS headers; Route.Session), x-api-key false a route that reads no
// API key.
const (
	CORSKey   = "x-cors"
	APIKeyKey = "x-api-key"
)

// addAPIKeyRefusal adds, to every operation of the full variant that reads
// API keys (all but those marked x-api-key: false), the 401 invalid_api_key
// of a key that is not a live key of this product, and the 400
// invalid_request of a credential header sent twice: the rule is one for all
// routes (account/keyauth.go), so it is written here once rather than on each
// operation. An operation with its own 401 gets the name added to it.
func addAPIKeyRefusal(doc map[string]any) {
	paths, _ := doc["paths"].(map[string]any)
	for _, item := range paths {
		item, _ := item.(map[string]any)
		for _, m := range httpMethods {
			op, ok := item[m].(map[string]any)
			if !ok || op[APIKeyKey] == false {
				continue
			}
			responses, _ := op["responses"].(map[string]any)
			if own, ok := responses["400"].(map[string]any); ok {
				if d, ok := own["description"].(string); ok {
					own["description"] = d + " Or a credential header sent twice, or two different API keys (`invalid_request`)."
				}
			} else if _, ok := responses["400"]; !ok {
				responses["400"] = map[string]any{"$ref": "#/components/responses/CredentialHeaders"}
			}
			if own, ok := responses["401"].(map[string]any); ok {
				if d, ok := own["description"].(string); ok {
					own["description"] = d + " Or an API key that is not a live key of this product (`invalid_api_key`)."
				}
				continue
			}
			responses["401"] = map[string]any{"$ref": "#/components/responses/InvalidAPIKey"}
		}
	}
}
