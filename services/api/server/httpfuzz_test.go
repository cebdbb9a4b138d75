package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// TestHTTPFuzz sends random requests, valid and invalid, to every operation
// of api/openapi.json, generated from the document itself: parameters from
// their schemas (and hostile values beside them), bodies from their schemas
// and mangled. The contract transport checks every exchange against the
// document; the test adds that nothing answers 5xx.
//
// OKF_HTTP_FUZZ_N sets the requests per variant (default 600; make faults
// runs more) and OKF_HTTP_FUZZ_SEED the seed (default: the clock, printed).
func TestHTTPFuzz(t *testing.T) {
	n := 600
	if v, err := strconv.Atoi(os.Getenv("OKF_HTTP_FUZZ_N")); err == nil && v > 0 {
		n = v
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("OKF_HTTP_FUZZ_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("OKF_HTTP_FUZZ_SEED=%d OKF_HTTP_FUZZ_N=%d", seed, n)
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			st := storetest.NewStore(t)
			upsert(t, st, corpusBundles(t)...)
			recount(t, st)
			a := newAPIWith(t, st, map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": variant,
				"METRICS_TOKEN": "op-token-0123456789"})
			g := newRequestGen(t, a, rand.New(rand.NewPCG(seed, 0x6f6b66)))
			counts := map[string]int{}
			for range n {
				req, label := g.next()
				resp, err := a.client.Do(req)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				counts[fmt.Sprintf("%d", resp.StatusCode/100*100)]++
				if resp.StatusCode >= 500 {
					t.Errorf("%s -> %d: %.300s", label, resp.StatusCode, body)
				}
				if t.Failed() {
					t.Fatalf("stopped at the first failure; replay with OKF_HTTP_FUZZ_SEED=%d", seed)
				}
			}
			t.Logf("%d requests over %d operations; answers by class: %v", n, len(g.ops), counts)
		})
	}
}

// fuzzOp is one operation of the document.
type fuzzOp struct {
	method, path string
	op           *openapi3.Operation
}

// requestGen makes random requests to the operations of a's document.
type requestGen struct {
	t   *testing.T
	a   *testAPI
	r   *rand.Rand
	ops []fuzzOp
	ids []string // real bundle ids, so card requests also find bundles
}

func newRequestGen(t *testing.T, a *testAPI, r *rand.Rand) *requestGen {
	g := &requestGen{t: t, a: a, r: r}
	doc := loadContract(t, a.full).doc
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			g.ops = append(g.ops, fuzzOp{method, path, op})
		}
	}
	slices.SortFunc(g.ops, func(x, y fuzzOp) int { return strings.Compare(x.method+x.path, y.method+y.path) })
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	a.get("/api/bundles?limit=50", http.StatusOK, &page)
	for _, it := range page.Items {
		g.ids = append(g.ids, it.ID)
	}
	return g
}

// hostile are strings that have broken parsers elsewhere.
var hostile = []string{
	"", " ", "\x00", "a\x00b", "%", "%zz", "\xff\xfe", "ä", "\u212Aelvin.example", "../../etc/passwd", "<script>alert(1)</script>",
	"' OR 1=1 --", "-1", "0", "1e3", "+5", "1.5", "9999999999999999999999", "null", "true", "[]", "{}", "a,,b", ",",
	"the -the", "\"unterminated", "*", "github", "code_host", "domain", "relevance", "0.1", "owner/repo", "a/b/c",
	"UI-JS-001", strings.Repeat("x", 201), strings.Repeat("é", 81), strings.Repeat("a,", 6) + "a",
}

// next returns a random request and a label that names it for a failure.
func (g *requestGen) next() (*http.Request, string) {
	op := g.ops[g.r.IntN(len(g.ops))]
	path := op.path
	query := url.Values{}
	header := http.Header{}
	for _, pr := range op.op.Parameters {
		p := pr.Value
		switch p.In {
		case "path":
			path = strings.Replace(path, "{"+p.Name+"}", url.PathEscape(g.pathValue(p)), 1)
		case "query":
			for range g.r.IntN(3) { // 0, 1 or (rarely valid) 2 values
				query.Add(p.Name, g.value(p.Schema))
			}
		case "header":
			if g.r.IntN(2) == 0 {
				header.Set(p.Name, strings.Map(headerSafe, g.headerValue(p)))
			}
		}
	}
	if g.r.IntN(8) == 0 {
		query.Set("unknown_"+strconv.Itoa(g.r.IntN(9)), g.pick(hostile))
	}
	target := g.a.url + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var body []byte
	if op.op.RequestBody != nil {
		body = g.body(op)
		header.Set("Content-Type", "application/json")
		if op.path == "/mcp" {
			header.Set("Accept", "application/json, text/event-stream")
		}
	}
	req, err := http.NewRequestWithContext(g.t.Context(), strings.ToUpper(op.method), target, bytes.NewReader(body))
	if err != nil {
		g.t.Fatal(err)
	}
	req.Header = header
	return req, fmt.Sprintf("%s %s body %.200q", req.Method, req.URL.RequestURI(), body)
}

func headerSafe(r rune) rune {
	if r < 0x20 || r == 0x7f || r > 0x7e {
		return 'x'
	}
	return r
}

func (g *requestGen) pick(from []string) string { return from[g.r.IntN(len(from))] }

func (g *requestGen) pathValue(p *openapi3.Parameter) string {
	switch {
	case p.Name == "id" && len(g.ids) > 0 && g.r.IntN(2) == 0:
		return g.pick(g.ids)
	case p.Name == "arquivo" && g.r.IntN(2) == 0:
		return g.pick([]string{"index.md", "sobre.md", "api.md", "faq.md"})
	}
	return g.value(p.Schema)
}

func (g *requestGen) headerValue(p *openapi3.Parameter) string {
	if strings.EqualFold(p.Name, "Authorization") {
		return g.pick([]string{"Bearer op-token-0123456789", "Bearer wrong", "Basic abc", "Bearer", "", "Bearer " + g.pick(hostile)})
	}
	return g.value(p.Schema)
}

// value is a random value for a schema: usually one it allows, sometimes a
// hostile one.
func (g *requestGen) value(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Value == nil || g.r.IntN(4) == 0 {
		return g.pick(hostile)
	}
	s := ref.Value
	if len(s.Enum) > 0 {
		return fmt.Sprint(s.Enum[g.r.IntN(len(s.Enum))])
	}
	switch {
	case s.Type.Is("integer"):
		return strconv.Itoa(g.pick2([]int{-1, 0, 1, 2, 23, 24, 99, 100, 101, 999, 1000, 1001, 1 << 31}))
	case s.Type.Is("boolean"):
		return g.pick([]string{"true", "false", "1"})
	}
	words := []string{"guide", "okf", "data", "receitas", "Go", "MIT", "0.1", "0.2", "event sour", "policy", "concept"}
	var parts []string
	for range 1 + g.r.IntN(3) {
		parts = append(parts, g.pick(words))
	}
	sep := g.pick([]string{" ", ",", " -", ", "})
	return strings.Join(parts, sep)
}

func (g *requestGen) pick2(from []int) int { return from[g.r.IntN(len(from))] }

// body is a request body for op: from its schema, or mangled.
func (g *requestGen) body(op fuzzOp) []byte {
	var v any
	if op.path == "/mcp" {
		v = g.rpcMessage()
	} else if mt := op.op.RequestBody.Value.Content.Get("application/json"); mt != nil {
		v = g.fromSchema(mt.Schema, 0)
	}
	b, _ := json.Marshal(v)
	switch g.r.IntN(10) {
	case 0:
		return b[:g.r.IntN(len(b)+1)] // truncated
	case 1:
		return []byte(g.pick([]string{"null", "[]", "{}", `""`, "0", "{\"a\":", strings.Repeat("[", 10000)}))
	case 2:
		return bytes.Repeat([]byte("a"), 70<<10) // over every body cap
	}
	return b
}

// fromSchema builds a JSON value a schema describes, with random slips.
func (g *requestGen) fromSchema(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > 4 {
		return nil
	}
	s := ref.Value
	if g.r.IntN(12) == 0 {
		return g.pick(hostile) // a wrong type or value
	}
	if len(s.Enum) > 0 {
		return s.Enum[g.r.IntN(len(s.Enum))]
	}
	switch {
	case s.Type.Is("object") || len(s.Properties) > 0:
		obj := map[string]any{}
		for name, p := range s.Properties {
			if slices.Contains(s.Required, name) || g.r.IntN(2) == 0 {
				if g.r.IntN(15) != 0 { // sometimes a required one is missing
					obj[name] = g.fromSchema(p, depth+1)
				}
			}
		}
		return obj
	case s.Type.Is("array"):
		var arr []any
		for range g.r.IntN(4) {
			arr = append(arr, g.fromSchema(s.Items, depth+1))
		}
		return arr
	case s.Type.Is("integer"):
		return g.pick2([]int{-1, 0, 1, 12, 100, 1 << 40})
	case s.Type.Is("boolean"):
		return g.r.IntN(2) == 0
	}
	return g.pick([]string{"docs.example.org", "https://docs.example.org/okf/index.md", "0123456789abcdef",
		"UI-JS-001", "global", "http://docs.example.org/x.md", "https://other.example/x.md", "https://docs.example.org/x.txt"})
}

// rpcMessage is a random JSON-RPC message for /mcp.
func (g *requestGen) rpcMessage() any {
	tools := []string{"api_index", "search_bundles", "get_bundle", "index_stats", "submit_bundles", "pricing", "billing", "nope"}
	args := map[string]any{}
	for _, k := range []string{"q", "limit", "offset", "sort", "id", "host", "origin", "concept"} {
		if g.r.IntN(4) == 0 {
			if g.r.IntN(2) == 0 {
				args[k] = g.pick(hostile)
			} else {
				args[k] = g.pick2([]int{-1, 0, 5, 1001})
			}
		}
	}
	methods := []string{"initialize", "tools/list", "tools/call", "tools/call", "ping", "resources/list", "nope"}
	m := map[string]any{"jsonrpc": "2.0", "id": g.r.IntN(100), "method": g.pick(methods)}
	switch m["method"] {
	case "tools/call":
		m["params"] = map[string]any{"name": g.pick(tools), "arguments": args}
	case "initialize":
		m["params"] = map[string]any{"protocolVersion": g.pick([]string{"2025-06-18", "2024-11-05", "1999-01-01"}),
			"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "fuzz", "version": "1"}}
	}
	return m
}
