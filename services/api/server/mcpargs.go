package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// argChecker checks a tool's arguments against its input schema, one
// argument at a time, so a failure names the argument at fault the way a
// REST error names its field.
type argChecker struct {
	props    map[string]*jsonschema.Resolved
	required []string
}

// newArgChecker resolves each property of an object schema (with the
// schema's $defs, for references) on its own.
func newArgChecker(schema any) (*argChecker, error) {
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
		prop = clone(prop)
		if defs, ok := in["$defs"]; ok {
			prop["$defs"] = defs
		}
		b, err := json.Marshal(prop)
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
	req, _ := in["required"].([]any)
	for _, r := range req {
		if name, ok := r.(string); ok {
			c.required = append(c.required, name)
		}
	}
	return c, nil
}

// args decodes and checks the arguments of a call: a JSON object (absent
// or null is an empty one) whose every key is a property of the schema,
// every value valid against it, and every required one present. The first
// fault, in argument name order, is an invalid_parameter error.
func (c *argChecker) args(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, invalidParameter("", "The arguments must be a JSON object.")
		}
		if args == nil {
			args = map[string]any{}
		}
	}
	for _, name := range c.required {
		if _, ok := args[name]; !ok {
			return nil, invalidParameter(name, "%s is required.", name)
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		schema, ok := c.props[name]
		if !ok {
			known := make([]string, 0, len(c.props))
			for k := range c.props {
				known = append(known, k)
			}
			slices.Sort(known)
			if len(known) == 0 {
				return nil, invalidParameter(name, "This tool takes no arguments; %s is not one.", name)
			}
			return nil, invalidParameter(name, "%s is not an argument of this tool; it takes %s.", name, strings.Join(known, ", "))
		}
		if err := schema.Validate(args[name]); err != nil {
			return nil, invalidParameter(name, "%s is not valid: %v", name, err)
		}
	}
	return args, nil
}
