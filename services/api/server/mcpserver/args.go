package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// argChecker checks what the REST route cannot see in a tool's arguments:
// that they are an object, that each is an argument of the tool, and that
// each has its JSON type. A failure names the argument at fault. Values
// (ranges, patterns, lists, required fields) are left to the route's own
// rules, so a tool answers the same error, name and field as its route.
type argChecker struct {
	props    map[string]*jsonschema.Resolved // each property's type only
	fullOnly map[string]bool                 // arguments of the full variant's tool, on base
}

// newArgChecker resolves the JSON type of each property of an object
// schema on its own. fullSchema is the full variant's schema of the same
// tool (nil on full), whose extra properties answer unsupported_parameter
// on base, as the route does.
func newArgChecker(schema, fullSchema any) (*argChecker, error) {
	in, ok := schema.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input schema is %T, not an object", schema)
	}
	c := &argChecker{props: map[string]*jsonschema.Resolved{}}
	props, _ := in["properties"].(map[string]any)
	for name, p := range props {
		prop, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("property %s is not a schema", name)
		}
		b, err := json.Marshal(typeOnly(prop))
		if err != nil {
			return nil, err
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("property %s: %w", name, err)
		}
		if c.props[name], err = s.Resolve(nil); err != nil {
			return nil, fmt.Errorf("property %s: %w", name, err)
		}
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

// typeOnly keeps of a schema what says a value's JSON type: type, and the
// type of an array's items.
func typeOnly(schema map[string]any) map[string]any {
	out := map[string]any{}
	if t, ok := schema["type"]; ok {
		out["type"] = t
	}
	if items, ok := schema["items"].(map[string]any); ok {
		out["items"] = typeOnly(items)
	}
	return out
}

// args decodes and checks the arguments of a call: a JSON object (absent
// or null is an empty one) whose every key is a property of the schema and
// every value of its type. The first fault, in argument name order, is an
// invalid_parameter error (unsupported_parameter for an argument of the
// full variant on base).
func (c *argChecker) args(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
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
		schema, ok := c.props[name]
		if !ok && c.fullOnly[name] {
			return nil, apierror.Unsupported(name)
		}
		if !ok {
			known := make([]string, 0, len(c.props))
			for k := range c.props {
				known = append(known, k)
			}
			slices.Sort(known)
			if len(known) == 0 {
				return nil, apierror.Parameter(name, "This tool takes no arguments; %s is not one.", name)
			}
			return nil, apierror.Parameter(name, "%s is not an argument of this tool; it takes %s.", name, strings.Join(known, ", "))
		}
		if err := schema.Validate(args[name]); err != nil {
			return nil, apierror.Parameter(name, "%s has the wrong type: %v", name, err)
		}
	}
	return args, nil
}
