package apierror

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"

	"github.com/okfindex/okf-index/api"
)

// TestEveryNameHasARow reads the name constants of names.go and checks that
// the table holds each of them and nothing else, so a name cannot be added
// without its status.
func TestEveryNameHasARow(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "names.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return true
		}
		for _, spec := range gd.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				name, _ := strconv.Unquote(v.(*ast.BasicLit).Value)
				declared[name] = true
			}
		}
		return false
	})
	for name := range declared {
		if _, ok := statuses[name]; !ok {
			t.Errorf("%s has no status in the table", name)
		}
	}
	for name := range statuses {
		if !declared[name] {
			t.Errorf("the table's %s is not a declared name", name)
		}
	}
	if len(declared) < 50 {
		t.Fatalf("read %d names from names.go; the parse missed them", len(declared))
	}
}

// TestTableMatchesOpenAPI checks every row of the table against
// api/openapi.json: the name is documented (as `name` or "error": "name")
// in a response of the row's status, and under no other status.
func TestTableMatchesOpenAPI(t *testing.T) {
	t.Parallel()
	documented := documentedNames(t)
	for name, status := range statuses {
		got := documented[name]
		if !got[status] {
			t.Errorf("%s: the table says %d, api/openapi.json documents it under %v", name, status, keys(got))
		}
		for s := range got {
			if s != status {
				t.Errorf("%s: api/openapi.json documents it under %d too; the table says %d", name, s, status)
			}
		}
	}
}

// documentedNames are the snake_case names the document's responses
// mention, by the statuses of the responses that mention them.
func documentedNames(t *testing.T) map[string]map[int]bool {
	t.Helper()
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	mention := regexp.MustCompile("`([a-z][a-z0-9_]*)`|\"error\": ?\"([a-z][a-z0-9_]*)\"")
	ref := regexp.MustCompile(`"\$ref": ?"#/components/responses/([A-Za-z]+)"`)
	out := map[string]map[int]bool{}
	add := func(status int, raw []byte) {
		for _, m := range mention.FindAllSubmatch(raw, -1) {
			name := string(m[1]) + string(m[2])
			if out[name] == nil {
				out[name] = map[int]bool{}
			}
			out[name][status] = true
		}
	}
	for _, item := range doc.Paths {
		for _, raw := range item {
			var op struct {
				Responses map[string]json.RawMessage `json:"responses"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue // a path item's parameters, not an operation
			}
			for code, resp := range op.Responses {
				status, err := strconv.Atoi(code)
				if err != nil {
					continue
				}
				add(status, resp)
				for _, m := range ref.FindAllSubmatch(resp, -1) {
					add(status, doc.Components.Responses[string(m[1])])
				}
			}
		}
	}
	return out
}

func keys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}
