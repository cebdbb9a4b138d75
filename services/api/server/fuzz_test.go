package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"unicode/utf8"

	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Fuzz targets of the API's decoders: each input either decodes or is
// refused with an error answer of the contract, never a panic or an
// internal error. make fuzz runs every Fuzz target of the module.

// FuzzParseSearch: GET /api/bundles's query string, on both variants.
func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{
		"q=guide&sort=relevance", "version=0.1,0.2&limit=5&offset=10", "origin=github&repo=Owner/Repo",
		"concept=event+sour&concepts=1-5", "limit=%2B5", "q=%00", "q=a&q=b", "version=a,,b", "%zz",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, full bool) {
		p, err := parseSearch(raw, full)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Body.Error == "" {
				t.Fatalf("parseSearch(%q) = %v, want a 400 answer", raw, err)
			}
			return
		}
		if p.Limit < 1 || p.Limit > maxLimit || p.Offset < 0 || p.Offset > resultCap || !utf8.ValidString(p.Q) || len([]rune(p.Q)) > maxQLen {
			t.Fatalf("parseSearch(%q) accepted %+v", raw, p)
		}
	})
}

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
	route := Route{Method: http.MethodGet, Path: "/api/bundles"}
	in, _, err := schemas.forRoute(route)
	if err != nil {
		f.Fatal(err)
	}
	fullIn, _, err := fullSchemas.forRoute(route)
	if err != nil {
		f.Fatal(err)
	}
	check, err := newArgChecker(in, fullIn)
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
		if _, err := queryOf(args); err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) {
				t.Fatalf("queryOf(%v) = %v", args, err)
			}
		}
	})
}
