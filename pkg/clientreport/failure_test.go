package clientreport

import (
	"encoding/json"
	"strings"
	"testing"
)

// body builds a report body from a base of valid required fields, with
// extra fields merged in (a nil value deletes the field).
func body(t testing.TB, extra map[string]any) []byte {
	t.Helper()
	m := map[string]any{"code": "UI-JS-001", "phase": "global"}
	for k, v := range extra {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// raw marks a value to be written as raw JSON text by body.
type raw string

func (r raw) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func TestParseFailureCode(t *testing.T) {
	for _, tc := range []struct {
		code any
		ok   bool
	}{
		{"UI-JS-001", true},
		{"UI-PROMESSA-001", true},
		{"UI-RECURSO-001", true},
		{"UI-CSP-001", true},
		{"UI-APP-001", true},
		{"UI-X", true},
		{"UI-new-2", true},                       // letters of either case, as the contract says
		{"UI-" + strings.Repeat("A", 37), true},  // 40 bytes
		{"UI-" + strings.Repeat("A", 38), false}, // 41 bytes
		{"", false},
		{"UI", false},
		{"UI-", false},
		{"UI--JS", false},
		{"UI-JS-", false},
		{"ui-js-001", false},
		{"XX-JS-001", false},
		{" UI-JS-001", false},
		{"UI-JS-001\n", false},
		{"UI-JS_001", false},
		{"UI-JS 001", false},
		{"UI-AÇÃO", false},
		{raw("1"), false},
		{raw("null"), false},
		{raw("true"), false},
		{raw(`{"x":1}`), false},
		{raw(`["UI-JS-001"]`), false},
		{nil, false}, // absent
	} {
		_, err := parseFailure(body(t, map[string]any{"code": tc.code}))
		if (err == nil) != tc.ok {
			t.Errorf("code %v: err = %v, want ok %v", tc.code, err, tc.ok)
		}
	}
}

func TestParseFailurePhase(t *testing.T) {
	for _, tc := range []struct {
		phase any
		ok    bool
	}{
		{"global", true},
		{"promessa", true},
		{"script", true},
		{"load_list", true},
		{"a", true},
		{"a" + strings.Repeat("b", 39), true},  // 40
		{"a" + strings.Repeat("b", 40), false}, // 41
		{"x9_", true},
		{"", false},
		{"Global", false},
		{"1abc", false},
		{"_x", false},
		{"load-list", false},
		{"load list", false},
		{"fase_é", false},
		{raw("0"), false},
		{raw("null"), false},
		{nil, false},
	} {
		_, err := parseFailure(body(t, map[string]any{"phase": tc.phase}))
		if (err == nil) != tc.ok {
			t.Errorf("phase %v: err = %v, want ok %v", tc.phase, err, tc.ok)
		}
	}
}

func TestParseFailurePositions(t *testing.T) {
	for _, tc := range []struct {
		v    raw
		want int
	}{
		{"0", 0},
		{"1", 1},
		{"120", 120},
		{"2147483647", 2147483647},
		{"2147483648", 0},
		{"99999999999999999999999999", 0},
		{"-1", 0},
		{"-0", 0},
		{"1.5", 0},
		{"12.0", 0},
		{"1e3", 0},
		{"1e400", 0},
		{`"12"`, 0},
		{"true", 0},
		{"null", 0},
		{"[1]", 0},
		{`{"n":1}`, 0},
	} {
		f, err := parseFailure(body(t, map[string]any{"line": tc.v, "column": tc.v}))
		if err != nil {
			t.Errorf("line %s: wrong type must drop the field, not the report: %v", tc.v, err)
			continue
		}
		if f.line != tc.want || f.column != tc.want {
			t.Errorf("line/column %s = %d/%d, want %d", tc.v, f.line, f.column, tc.want)
		}
	}
}

func TestParseFailureVisivel(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{true, true},
		{false, false},
		{"true", false},
		{1, false},
		{raw("null"), false},
		{nil, false},
	} {
		f, err := parseFailure(body(t, map[string]any{"visivel": tc.v}))
		if err != nil || f.visivel != tc.want {
			t.Errorf("visivel %v = %v (err %v), want %v", tc.v, f.visivel, err, tc.want)
		}
	}
}

func TestParseFailureWrongTypedTextIsAbsent(t *testing.T) {
	f, err := parseFailure(body(t, map[string]any{
		"message": 12, "stack": []string{"x"}, "path": true, "source": map[string]int{"a": 1},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if f.message != "" || f.stack != "" || f.path != "" || f.source != "" {
		t.Errorf("wrong-typed text fields kept: %+v", f)
	}
}

func TestParseFailureUnknownAndMiscasedFields(t *testing.T) {
	f, err := parseFailure(body(t, map[string]any{
		"ip": "203.0.113.9", "cookie": "sid=1", "userAgent": "Mozilla/5.0", "extra": map[string]any{"deep": []int{1}},
		"Message": "miscased field names are unknown fields",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if f.message != "" {
		t.Errorf("message = %q, want empty (\"Message\" is not \"message\")", f.message)
	}
	if _, err := parseFailure([]byte(`{"Code":"UI-JS-001","phase":"global"}`)); err == nil {
		t.Error(`"Code" accepted as "code"`)
	}
}

func TestParseFailureCaps(t *testing.T) {
	for _, tc := range []struct {
		name      string
		field     string
		text      string
		wantRunes int
		truncated bool
	}{
		{"message at cap", "message", strings.Repeat("a", MaxMessageRunes), MaxMessageRunes, false},
		{"message over cap", "message", strings.Repeat("a", MaxMessageRunes+1), MaxMessageRunes, true},
		{"message multibyte over cap", "message", strings.Repeat("é", MaxMessageRunes+5), MaxMessageRunes, true},
		{"message 4-byte runes at cap", "message", strings.Repeat("😀", MaxMessageRunes), MaxMessageRunes, false},
		{"stack at cap", "stack", strings.Repeat("s", MaxStackRunes), MaxStackRunes, false},
		{"stack over cap", "stack", strings.Repeat("s", MaxStackRunes+1), MaxStackRunes, true},
		{"stack multibyte over cap", "stack", strings.Repeat("ã", MaxStackRunes+100), MaxStackRunes, true},
		{"path over cap", "path", "/" + strings.Repeat("p", 2*maxPathRunes), maxPathRunes, false},
		{"source over cap", "source", "https://cdn.example/" + strings.Repeat("q", 2*maxPathRunes), maxPathRunes, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseFailure(body(t, map[string]any{tc.field: tc.text}))
			if err != nil {
				t.Fatal(err)
			}
			got, truncated := map[string]string{"message": f.message, "stack": f.stack, "path": f.path, "source": f.source}[tc.field],
				map[string]bool{"message": f.messageTruncated, "stack": f.stackTruncated}[tc.field]
			if n := len([]rune(got)); n != tc.wantRunes {
				t.Errorf("%s has %d runes, want %d", tc.field, n, tc.wantRunes)
			}
			if truncated != tc.truncated {
				t.Errorf("truncated = %v, want %v", truncated, tc.truncated)
			}
		})
	}
}

func TestParseFailureGarbage(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, tc := range []struct {
		name string
		body string
		ok   bool
	}{
		{"empty", "", false},
		{"space", "  \n", false},
		{"null", "null", false},
		{"array", `[{"code":"UI-JS-001","phase":"global"}]`, false},
		{"empty array", "[]", false},
		{"string", `"UI-JS-001"`, false},
		{"number", "1", false},
		{"true", "true", false},
		{"open brace", "{", false},
		{"empty object", "{}", false},
		{"truncated", `{"code":"UI-JS-001","phase":"glo`, false},
		{"trailing data", `{"code":"UI-JS-001","phase":"global"} {}`, false},
		{"not JSON", "code=UI-JS-001&phase=global", false},
		{"BOM", "\ufeff" + `{"code":"UI-JS-001","phase":"global"}`, false},
		{"invalid UTF-8 outside strings", "{\xff\xfe}", false},
		{"deep nesting in unknown field", `{"code":"UI-JS-001","phase":"global","x":` + deep + `}`, false},
		{"moderate nesting in unknown field", `{"code":"UI-JS-001","phase":"global","x":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}`, true},
		{"huge numbers", `{"code":"UI-JS-001","phase":"global","line":1e999999,"column":-99999999999999999999999,"x":123456789012345678901234567890}`, true},
		{"invalid UTF-8 in strings", "{\"code\":\"UI-JS-001\",\"phase\":\"global\",\"message\":\"a\xffb\xc3\",\"stack\":\"\xed\xa0\x80\"}", true},
		{"invalid UTF-8 in code", "{\"code\":\"UI-JS-001\xff\",\"phase\":\"global\"}", false},
		{"lone surrogate escapes", `{"code":"UI-JS-001","phase":"global","message":"\ud800\udfff\udc00"}`, true},
		{"duplicate keys, last wins", `{"code":"bad","code":"UI-JS-001","phase":"global"}`, true},
		{"over MaxBodyBytes", `{"code":"UI-JS-001","phase":"global","x":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, false},
		{"NUL", "{\"code\":\"UI-JS-001\",\"phase\":\"global\"}\x00", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseFailure([]byte(tc.body))
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
			for _, s := range []string{f.message, f.stack, f.path, f.source} {
				if strings.ContainsRune(s, 0) {
					t.Errorf("NUL kept in %q", s)
				}
			}
		})
	}
}

func TestParseFailureCleansText(t *testing.T) {
	f, err := parseFailure(body(t, map[string]any{
		"message": "a\x00b\x1bc\u200bd\u202ee\r\nf\tg\u0085h",
		"stack":   "Error: x\n    at f (https://x.example/app.js:1:2)\n",
		"path":    "/a\nb\t/c%0Ad",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if want := "abcde\nf\tgh"; f.message != want {
		t.Errorf("message = %q, want %q", f.message, want)
	}
	if want := "Error: x\n    at f (https://x.example/app.js:1:2)\n"; f.stack != want {
		t.Errorf("stack = %q, want %q", f.stack, want)
	}
	if want := "/ab/cd"; f.path != want {
		t.Errorf("path = %q, want %q", f.path, want)
	}
}

func TestKeepPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/", "/"},
		{"/bundles/abc", "/bundles/abc"},
		{"/busca?q=meu+segredo&token=x", "/busca"},
		{"/pagina#secao?x", "/pagina"},
		{"https://okf.example/busca?q=x#y", "/busca"},
		{"https://okf.example", "/"},
		{"HTTPS://OKF.EXAMPLE/A", "/A"},
		{"https://joe:hunter2@okf.example/x", "/x"},
		{"https://joe:hun?ter2@okf.example/x", "/"},
		{"//cdn.example/lib.js?v=3", "/lib.js"},
		{"webpack:///./src/main.ts", "/./src/main.ts"},
		{"chrome-extension://abcdef/content.js", "/content.js"},
		{"data:text/javascript,alert(document.cookie)", "data:"},
		{"blob:https://okf.example/3f2a-11", "blob:"},
		{"javascript:void(0)", "javascript:"},
		{"about:blank", "about:"},
		{"app.js:12:5", "app.js:12:5"},
		{"C:/Users/x/app.js", "C:/Users/x/app.js"},
		{"/caf%C3%A9/x%20y", "/café/x y"},
		{"/bad%zzescape", "/bad%zzescape"},
		{"/perfil/joe%40example.com", "/perfil/" + markEmail},
		{"/u/+55 11 91234-5678", "/u/" + markPhone},
		{"/reset/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "/reset/" + markToken},
		{"/x%3Ftoken=abc", "/x?token=" + markSecret},
		{"", ""},
	} {
		if got := keepPath(tc.in); got != tc.want {
			t.Errorf("keepPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCapRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"", 3, "", false},
		{"abc", 3, "abc", false},
		{"abcd", 3, "abc", true},
		{"ééé", 3, "ééé", false},
		{"éééé", 3, "ééé", true},
		{"a😀b", 2, "a😀", true},
	} {
		got, cut := capRunes(tc.s, tc.n)
		if got != tc.want || cut != tc.cut {
			t.Errorf("capRunes(%q, %d) = %q, %v; want %q, %v", tc.s, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}
