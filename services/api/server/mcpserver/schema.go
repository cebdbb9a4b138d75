package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/okfindex/okf-index/services/api/server/openapi"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// toolSchemas derives MCP tool schemas from the OpenAPI document a variant
// publishes: a tool's input schema is its route's parameters (or JSON
// request body) as one object, and its output schema is the route's success
// response. Component references become references into $defs, which every
// schema carries, so each schema stands alone.
type toolSchemas struct {
	paths map[string]any
	defs  map[string]any // components.schemas, references rewritten
}

const (
	openAPIRefPrefix = "#/components/schemas/"
	defsRefPrefix    = "#/$defs/"
)

// newToolSchemas reads the document of a variant.
func newToolSchemas(full bool) (*toolSchemas, error) {
	data, err := openapi.Published("", full)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Paths      map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	defs, _ := rewriteRefs(doc.Components.Schemas).(map[string]any)
	return &toolSchemas{paths: doc.Paths, defs: defs}, nil
}

// forRoute returns the input and output schemas of a route's operation.
func (ts *toolSchemas) forRoute(r route.Route) (in, out map[string]any, err error) {
	route := r.Method + " " + r.Path // for the messages
	op, ok := dig(ts.paths, r.Path, strings.ToLower(r.Method)).(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("api/openapi.json has no operation %s", route)
	}
	if in, err = ts.input(op); err != nil {
		return nil, nil, fmt.Errorf("%s: input: %w", route, err)
	}
	if out, err = ts.output(op); err != nil {
		return nil, nil, fmt.Errorf("%s: output: %w", route, err)
	}
	return in, out, nil
}

// input is an operation's JSON request body schema, or an object whose
// properties are its parameters (query and path alike).
func (ts *toolSchemas) input(op map[string]any) (map[string]any, error) {
	if body, ok := dig(op, "requestBody", "content", "application/json", "schema").(map[string]any); ok {
		return ts.object(body)
	}
	props := map[string]any{}
	required := []any{}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		p, _ := p.(map[string]any)
		name, _ := p["name"].(string)
		schema, ok := p["schema"].(map[string]any)
		if name == "" || !ok {
			return nil, fmt.Errorf("parameter %v has no name or schema", p)
		}
		prop := clone(schema)
		if d, ok := p["description"]; ok {
			prop["description"] = d
		}
		props[name] = prop
		if req, _ := p["required"].(bool); req {
			required = append(required, name)
		}
	}
	in := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		in["required"] = required
	}
	return in, nil
}

// output is an operation's success response schema (the first 2xx status
// with a JSON body), as an object schema.
func (ts *toolSchemas) output(op map[string]any) (map[string]any, error) {
	for _, status := range []string{"200", "202"} {
		if s, ok := dig(op, "responses", status, "content", "application/json", "schema").(map[string]any); ok {
			return ts.object(s)
		}
	}
	return nil, fmt.Errorf("no JSON success response")
}

// object makes a schema stand alone: a reference is replaced by the schema
// it names, a composition is marked type object (MCP wants object schemas
// at the top), and $defs holds every component.
func (ts *toolSchemas) object(s map[string]any) (map[string]any, error) {
	s, _ = rewriteRefs(s).(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		named, ok := ts.defs[strings.TrimPrefix(ref, defsRefPrefix)].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("unknown reference %s", ref)
		}
		s = clone(named)
	}
	if _, ok := s["type"]; !ok {
		s["type"] = "object"
	}
	if s["type"] != "object" {
		return nil, fmt.Errorf("schema type %v is not object", s["type"])
	}
	s["$defs"] = ts.defs
	return s, nil
}

// rewriteRefs copies a JSON value, pointing component references at $defs.
func rewriteRefs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if ref, ok := e.(string); ok && k == "$ref" && strings.HasPrefix(ref, openAPIRefPrefix) {
				e = defsRefPrefix + strings.TrimPrefix(ref, openAPIRefPrefix)
			}
			out[k] = rewriteRefs(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = rewriteRefs(e)
		}
		return out
	}
	return v
}

// clone is a deep copy of a JSON object.
func clone(m map[string]any) map[string]any {
	out, _ := rewriteRefs(m).(map[string]any)
	return out
}

// dig walks nested JSON objects by key; nil when a key is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
