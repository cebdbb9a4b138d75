package mcpserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// FuzzRefusalError: the JSON-RPC error made from an SDK refusal and the
// body it refused.
func FuzzRefusalError(f *testing.F) {
	f.Add(400, "JSON RPC not handled: \"x\" unsupported", []byte(`{"jsonrpc":"2.0","id":7,"method":"x"}`))
	f.Add(400, "malformed payload", []byte(`{bad`))
	f.Add(413, "", []byte(`{"id":{"a":1}}`))
	f.Fuzz(func(t *testing.T, status int, text string, body []byte) {
		e := refusalError(status, text, body)
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("refusalError(%d, %q, %q) does not encode: %v", status, text, body, err)
		}
		var back map[string]any
		if json.Unmarshal(b, &back) != nil || back["jsonrpc"] != "2.0" || e.Error.Message == "" && text != "" {
			t.Fatalf("refusalError gave %s", b)
		}
	})
}

// FuzzToolArgs: the arguments of an MCP tool call, checked against
// search_bundles' input schema on base (with the full-only parameters).
func FuzzToolArgs(f *testing.F) {
	schemas, err := newToolSchemas(false)
	if err != nil {
		f.Fatal(err)
	}
	fullSchemas, err := newToolSchemas(true)
	if err != nil {
		f.Fatal(err)
	}
	rt := route.Route{Method: http.MethodGet, Path: "/api/bundles"}
	in, _, err := schemas.forRoute(rt)
	if err != nil {
		f.Fatal(err)
	}
	fullIn, _, err := fullSchemas.forRoute(rt)
	if err != nil {
		f.Fatal(err)
	}
	check, err := newArgChecker(in, fullIn, true)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"q":"guide","limit":5}`, `{"concept":"x"}`, `{"limit":"5"}`, `null`, `[]`, `{"q":null}`, `{"nope":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := check.args(raw)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest {
				t.Fatalf("args(%q) = %v, want a 400 answer", raw, err)
			}
			return
		}
		if _, err := QueryOf(args); err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) {
				t.Fatalf("QueryOf(%v) = %v", args, err)
			}
		}
	})
}
