package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// argChecker checks what the REST route cannot see in a tool's arguments:
// that they are an object, that each is an argument of the tool, and that
// each has a shape the route can read. A failure names the argument at
// fault in the words of the REST errors, never a JSON-schema validator's.
//
// A tool of a GET route reads its arguments as the route reads its query
// and path: as text. A string is passed as it is, a number as the digits
// it was written with (so limit: 1e308 or 2.5 is refused by the route with
// its own message, as ?limit=1e308 is) and a boolean as true or false; a
// null is an argument left out. Only a list or an object is refused here.
// A tool of a POST route takes a JSON body, so each argument must have its
// JSON type. Values (ranges, patterns, lists, required fields) are left to
// the route's own rules, so a tool answers the error, name, field and
// message of its route.
type argChecker struct {
	props    map[string]argType
	fullOnly map[string]bool // arguments of the full variant's tool, on base
	asText   bool            // the route reads its parameters from the URL
}

// argType is a property's JSON type, and its items' for an array.
type argType struct{ typ, items string }

// newArgChecker reads the JSON type of each property of an object schema.
// fullSchema is the full variant's schema of the same tool (nil on full),
// whose extra properties answer unsupported_parameter on base, as the
// route does. asText is true for a tool of a GET route.
func newArgChecker(schema, fullSchema any, asText bool) (*argChecker, error) {
	in, ok := schema.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input schema is %T, not an object", schema)
	}
	c := &argChecker{props: map[string]argType{}, asText: asText}
	props, _ := in["properties"].(map[string]any)
	for name, p := range props {
		prop, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("property %s is not a schema", name)
		}
		t := argType{}
		t.typ, _ = prop["type"].(string)
		if items, ok := prop["items"].(map[string]any); ok {
			t.items, _ = items["type"].(string)
		}
		if t.typ == "" && !asText {
			return nil, fmt.Errorf("property %s has no single type", name)
		}
		c.props[name] = t
	}
	if full, ok := fullSchema.(map[string]any); ok {
		c.fullOnly = map[string]bool{}
		fullProps, _ := full["properties"].(map[string]any)
		for name := range fullProps {
			if _, ok := props[name]; !ok {
				c.fullOnly[name] = true
			}
		}
	}
	return c, nil
}

// args decodes and checks the arguments of a call: a JSON object (absent
// or null is an empty one) whose every key is a property of the schema.
// The first fault, in argument name order, is an invalid_parameter error
// (unsupported_parameter for an argument of the full variant on base).
func (c *argChecker) args(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // a number keeps the digits it was written with
		if err := dec.Decode(&args); err != nil || dec.More() {
			return nil, apierror.Parameter("", "The arguments must be a JSON object.")
		}
		if args == nil {
			args = map[string]any{}
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t, ok := c.props[name]
		if !ok {
			return nil, c.unknown(name)
		}
		if !c.asText {
			if !hasType(args[name], t.typ, t.items) {
				return nil, apierror.Parameter(name, "%s must be %s.", name, typeWords(t))
			}
			continue
		}
		switch v := args[name].(type) {
		case nil:
			delete(args, name)
		case string:
		case json.Number:
			args[name] = v.String()
		case bool:
			args[name] = fmt.Sprint(v)
		default:
			return nil, apierror.Parameter(name, "%s takes one value, a string or a number, as its query parameter does.", name)
		}
	}
	return args, nil
}

// unknown is the error for an argument the tool does not take.
func (c *argChecker) unknown(name string) error {
	if c.fullOnly[name] {
		return apierror.Unsupported(name)
	}
	known := make([]string, 0, len(c.props))
	for k := range c.props {
		known = append(known, k)
	}
	slices.Sort(known)
	if len(known) == 0 {
		return apierror.Parameter(name, "This tool takes no arguments; %s is not one.", name)
	}
	return apierror.Parameter(name, "%s is not an argument of this tool; it takes %s.", name, strings.Join(known, ", "))
}

// hasType reports whether a decoded JSON value (numbers as json.Number)
// has a JSON-schema type; an array's items must have the items type.
func hasType(v any, typ, items string) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		return ok && strings.TrimLeft(strings.TrimPrefix(n.String(), "-"), "0123456789") == ""
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, item := range list {
			if items != "" && !hasType(item, items, "") {
				return false
			}
		}
		return true
	}
	return true // no type: any value
}

// typeWords says a type as the REST errors would.
func typeWords(t argType) string {
	switch t.typ {
	case "string":
		return "a string"
	case "integer":
		return "a whole number written in digits"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "object":
		return "an object"
	case "array":
		plural := map[string]string{"string": "strings", "integer": "whole numbers", "number": "numbers",
			"boolean": "booleans", "object": "objects"}[t.items]
		if plural == "" {
			return "a list"
		}
		return "a list of " + plural
	}
	return "a JSON value"
}
