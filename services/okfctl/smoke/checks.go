package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"strings"
)

// check is one step of the suite.
type check struct {
	name string
	full bool // full variant only
	run  func(ctx context.Context, s *suite) error
}

// checks lists the suite in order; the first ones learn what the later
// ones need (the variant, a bundle id).
func (s *suite) checks() []check {
	cs := []check{
		{name: "GET /api/health", run: func(ctx context.Context, s *suite) error {
			var h struct {
				OK         bool
				App, Build string
			}
			if err := s.getJSON(ctx, "/api/health", 200, &h, "ok", "app", "build"); err != nil {
				return err
			}
			if !h.OK || h.App == "" {
				return fmt.Errorf("health is %+v", h)
			}
			return nil
		}},
		{name: "GET /api/", run: checkIndex},
		{name: "GET /api/bundles", run: checkSearch},
		{name: "GET /api/bundles?limit=0 (refused)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "GET", "/api/bundles?limit=0", nil, 400, "limit")
		}},
		{name: "GET /api/bundles/{id}", run: checkCard},
		{name: "GET /api/bundles/{id} (unknown)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "GET", "/api/bundles/house-smoke-no-such-bundle", nil, 404, "")
		}},
		{name: "GET /api/stats", run: func(ctx context.Context, s *suite) error {
			keys := []string{"total", "by_origin", "by_version", "by_language", "last_update"}
			if s.full {
				keys = append(keys, "by_type", "by_concepts", "by_license")
			}
			return s.getJSON(ctx, "/api/stats", 200, nil, keys...)
		}},
		{name: "GET /api/okf/stats", full: true, run: func(ctx context.Context, s *suite) error {
			return s.getJSON(ctx, "/api/okf/stats", 200, nil, "total", "by_type", "by_concepts", "by_license")
		}},
		{name: "GET /api/ping/status", run: func(ctx context.Context, s *suite) error {
			return s.getJSON(ctx, "/api/ping/status?host=example.com", 200, nil, "host", "items")
		}},
		{name: "GET /api/status", run: func(ctx context.Context, s *suite) error {
			var st struct {
				Known bool
				Items []any
			}
			if err := s.getJSON(ctx, "/api/status?repo=house-smoke/no-such-repo", 200, &st,
				"repo", "known", "message", "checked_at", "next_check_at", "items", "next"); err != nil {
				return err
			}
			if st.Known || len(st.Items) != 0 {
				return fmt.Errorf("an unknown repository answered known %v with %d items", st.Known, len(st.Items))
			}
			return nil
		}},
		{name: "GET /api/status (bad repo)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "GET", "/api/status?repo=-bad-/name", nil, 400, "repo")
		}},
		{name: "POST /api/ping (validated, not sent)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "POST", "/api/ping", []byte(`{}`), 400, "")
		}},
		{name: "POST /api/visit", run: func(ctx context.Context, s *suite) error {
			var ack struct{ Counted, OK bool }
			if err := s.sendJSON(ctx, "POST", "/api/visit", []byte(`{"smoke":true,"p":"/"}`), 200, &ack, "counted", "ok"); err != nil {
				return err
			}
			if !ack.OK || ack.Counted {
				return fmt.Errorf("visit answered %+v, want ok and not counted", ack)
			}
			return nil
		}},
		{name: "GET /api/metrics", run: func(ctx context.Context, s *suite) error {
			return s.getJSON(ctx, "/api/metrics", 200, nil, "app", "today", "today_visits", "days", "usage", "accounts")
		}},
		{name: "POST /api/erro-cliente", run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "POST", "/api/erro-cliente", bytes.NewReader([]byte(`{"code":"smoke"}`)),
				map[string]string{"Content-Type": "application/json"})
			if err != nil {
				return err
			}
			if r.status != 204 || len(r.body) != 0 {
				return fmt.Errorf("status %d with %d bytes, want 204 and no body", r.status, len(r.body))
			}
			return nil
		}},
		{name: "GET /api/pricing", full: true, run: func(ctx context.Context, s *suite) error {
			return s.getJSON(ctx, "/api/pricing", 200, nil, "product", "quota", "pricing", "billing", "api_index")
		}},
		{name: "GET /api/billing", full: true, run: func(ctx context.Context, s *suite) error {
			return s.getJSON(ctx, "/api/billing", 200, nil, "product", "quota", "payment", "credit")
		}},
		{name: "OPTIONS /api/bundles (preflight)", run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "OPTIONS", "/api/bundles", nil, map[string]string{
				"Origin": "https://agent.example", "Access-Control-Request-Method": "GET"})
			if err != nil {
				return err
			}
			if r.status != 204 {
				return fmt.Errorf("status %d, want 204", r.status)
			}
			return nil
		}},
		{name: "POST /mcp", run: checkMCP},
	}
	cs = append(cs, s.accountChecks()...)
	cs = append(cs, s.partnerChecks()...)
	cs = append(cs, s.paymentViewChecks()...)
	cs = append(cs, s.paymentChecks()...)
	cs = append(cs, s.vitrineChecks()...)
	cs = append(cs, s.documentChecks()...)
	cs = append(cs, s.changeChecks()...)
	if s.opts.Ping != nil {
		cs = append(cs, check{name: "POST /api/ping (sent)", run: checkRealPing})
	}
	return cs
}

// checkIndex reads GET /api/: the variant, the base URL, the MCP tools.
func checkIndex(ctx context.Context, s *suite) error {
	var idx struct {
		BaseURL   string `json:"base_url"`
		Endpoints []struct{ Method, Path string }
		MCPTools  []string `json:"mcp_tools"`
		Docs      map[string]string
	}
	if err := s.getJSON(ctx, "/api/", 200, &idx, "name", "description", "build", "base_url", "docs", "endpoints", "mcp_tools"); err != nil {
		return err
	}
	if idx.BaseURL != s.base {
		return fmt.Errorf("base_url is %q, but the deployment was reached at %q: check PUBLIC_BASE_URL", idx.BaseURL, s.base)
	}
	s.full = slices.ContainsFunc(idx.Endpoints, func(e struct{ Method, Path string }) bool { return e.Path == "/api/okf/stats" })
	s.tools = len(idx.MCPTools)
	if want := map[bool]int{false: 5, true: 7}[s.full]; s.tools != want {
		return fmt.Errorf("%d MCP tools, want %d", s.tools, want)
	}
	return nil
}

// checkSearch reads a page and keeps a bundle for the card check.
func checkSearch(ctx context.Context, s *suite) error {
	var page struct {
		Items []struct{ ID, API string }
		Limit int
	}
	if err := s.getJSON(ctx, "/api/bundles?limit=2", 200, &page, "items", "limit", "offset", "next_offset", "next"); err != nil {
		return err
	}
	if page.Limit != 2 || len(page.Items) > 2 {
		return fmt.Errorf("limit %d with %d items, want limit 2", page.Limit, len(page.Items))
	}
	if len(page.Items) > 0 {
		if !strings.HasPrefix(page.Items[0].API, s.base+"/api/bundles/") {
			return fmt.Errorf("item api URL %q is not under %s", page.Items[0].API, s.base)
		}
		s.bundle = page.Items[0].API
	}
	return nil
}

// checkCard reads the card of the bundle the search found.
func checkCard(ctx context.Context, s *suite) error {
	if s.bundle == "" {
		return nil // an empty index has no card to read; the unknown-id check still runs
	}
	var card struct{ ID, API string }
	if err := s.getJSON(ctx, s.bundle, 200, &card, "id", "name", "okf_version", "concept_list", "index_url", "source", "indexed_at", "api"); err != nil {
		return err
	}
	if card.API != s.bundle {
		return fmt.Errorf("card api %q, want %q", card.API, s.bundle)
	}
	return nil
}

// checkRealPing submits the configured root.
func checkRealPing(ctx context.Context, s *suite) error {
	p := s.opts.Ping
	body, _ := json.Marshal(map[string]any{"host": p.Host, "key": p.Key, "urlList": []string{p.URL}})
	return s.sendJSON(ctx, "POST", "/api/ping", body, 202, nil, "ok", "estado", "host", "recebidos", "chave_em", "mensagem", "api_index")
}

// getJSON GETs a JSON document, checks its status and keys, and decodes it
// into v (when not nil).
func (s *suite) getJSON(ctx context.Context, path string, status int, v any, keys ...string) error {
	return s.sendJSON(ctx, "GET", path, nil, status, v, keys...)
}

// sendJSON sends a request and checks a JSON answer.
func (s *suite) sendJSON(ctx context.Context, method, path string, body []byte, status int, v any, keys ...string) error {
	var rd *bytes.Reader
	header := map[string]string{}
	if body != nil {
		rd = bytes.NewReader(body)
		header["Content-Type"] = "application/json"
	} else {
		rd = bytes.NewReader(nil)
	}
	r, err := s.call(ctx, method, path, rd, header)
	if err != nil {
		return err
	}
	return r.expectJSON(status, v, keys...)
}

// wantError checks a refusal: its status, a JSON error body with a name
// and a message, and the field at fault when one is named.
func (s *suite) wantError(ctx context.Context, method, path string, body []byte, status int, field string) error {
	var e struct{ Error, Message, Field string }
	if err := s.sendJSON(ctx, method, path, body, status, &e, "error", "message"); err != nil {
		return err
	}
	if e.Error == "" || e.Message == "" || (field != "" && e.Field != field) {
		return fmt.Errorf("error body %+v, want a name, a message and field %q", e, field)
	}
	return nil
}

// expectJSON checks the status, the JSON content type and the top-level
// keys, and decodes the body into v when v is not nil.
func (r response) expectJSON(status int, v any, keys ...string) error {
	if r.status != status {
		return fmt.Errorf("status %d, want %d: %.200s", r.status, status, r.body)
	}
	if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt != "application/json" {
		return fmt.Errorf("Content-Type %q, want application/json", r.header.Get("Content-Type"))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &top); err != nil {
		return fmt.Errorf("the body is not a JSON object: %w", err)
	}
	for _, k := range keys {
		if _, ok := top[k]; !ok {
			return fmt.Errorf("no %q in the answer", k)
		}
	}
	if v != nil {
		if err := json.Unmarshal(r.body, v); err != nil {
			return fmt.Errorf("decoding the answer: %w", err)
		}
	}
	return nil
}
