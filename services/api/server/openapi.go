package server

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/api"
)

// variantKey marks, in api/openapi.json, an operation or a parameter that
// exists only in the full variant.
const variantKey = "x-variant"

// httpMethods are the operation keys of an OpenAPI path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// publishedOpenAPI is the document GET /openapi.json answers: the embedded
// api/openapi.json with servers set to the public base URL, and, for a base
// deployment, without the operations and parameters marked x-variant: full
// (a path left with no operation goes too). Computed once at start.
func publishedOpenAPI(baseURL string, full bool) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		return nil, err
	}
	doc["servers"] = []any{map[string]any{"url": baseURL}}
	if !full {
		paths, _ := doc["paths"].(map[string]any)
		for p, item := range paths {
			item, _ := item.(map[string]any)
			if keepBase(item) == 0 {
				delete(paths, p)
			}
		}
	}
	return marshal(doc)
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

func fullOnly(v map[string]any) bool { return v[variantKey] == "full" }

// getOpenAPI answers GET /openapi.json with the document computed at start.
func (s *Server) getOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, s.openAPIJSON)
}
