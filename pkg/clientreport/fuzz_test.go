package clientreport

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Secrets the fuzz target plants in every text field; whatever surrounds
// them, they must never reach the log.
const (
	fuzzEmail  = "joao.silva@example.com"
	fuzzBearer = "hsk_live_8f7e6d5c4b3a2910"
)

// FuzzReport checks, for any body and User-Agent: no panic; every event is
// one JSON line of valid UTF-8 with message, stack, path and source within
// their caps and a known ua_family. It then plants an e-mail address and a
// bearer token between fuzzed prefix and suffix in message, stack, path and
// source of a valid report, and checks neither survives.
//
//	go test -run '^$' -fuzz FuzzReport -fuzztime 60s ./clientreport/
func FuzzReport(f *testing.F) {
	for _, seed := range []struct{ body, ua, prefix, suffix string }{
		{`{"code":"UI-JS-001","phase":"global","message":"x is not defined","line":1,"column":2}`, chromeUA, "", ""},
		{`{"code":"UI-PROMESSA-001","phase":"promessa","path":"https://okf.example/a?b#c","visivel":true}`, "curl/8", "at f (", ")"},
		{`{"code":"UI-RECURSO-001","phase":"load_list","source":"https://u:p@cdn.example/x.js?t=1","stack":"Error\n at a (x.js:1:2)"}`, "", "https://", "?q=1"},
		{`{"code":"UI-CSP-001","phase":"script","message":"+55 11 91234-5678 ana@x.com Bearer abc eyJhbGciOiJIUzI1NiJ9.eyJzIjoxfQ.c2ln"}`, "", "token=", "&x=1"},
		{`{"code":"UI-APP-001","phase":"global","line":1e999,"column":-1,"x":[[[[{}]]]]}`, "", "x", "5"},
		{"{\"code\":\"UI-JS-001\",\"phase\":\"global\",\"message\":\"\xff\\ud800\\u0000\"}", "\xff", "\u200b", "\u202e"},
		{`null`, "", "%", "%40"},
		{`[1,2,3]`, "", "Authorization: ", "\n"},
		// Over the cap in the body only: prefix and suffix appear eight times
		// in the planted report, and every mutation of a large seed is slow.
		{`{"code":"UI-JS-001","phase":"global","message":"` + strings.Repeat("é", MaxMessageRunes+3) + `"}`, "", "a", "."},
		{`{"code":"UI-JS-001","phase":"global","stack":"at x (a.js:1:2)\\n"}`, "", "xBearer ", "-"},
		{"", "", "\"password\":\"", "\""},
	} {
		f.Add([]byte(seed.body), seed.ua, seed.prefix, seed.suffix)
	}
	f.Fuzz(func(t *testing.T, data []byte, ua, prefix, suffix string) {
		var out bytes.Buffer
		r := New(slog.New(slog.NewJSONHandler(&out, nil)), Options{Now: func() time.Time { return t0 }})

		if o := r.Report(data, ua); o < Invalid || o > Dropped {
			t.Fatalf("outcome %d", o)
		}
		b, err := json.Marshal(map[string]any{
			"code": "UI-JS-001", "phase": "global", "line": 1, "column": 2,
			"message": prefix + fuzzEmail + suffix + " " + prefix + "Bearer " + fuzzBearer + suffix,
			"stack":   prefix + "Bearer " + fuzzBearer + suffix + "\n" + prefix + fuzzEmail + suffix,
			"path":    prefix + fuzzEmail + suffix + "/" + prefix + "Bearer " + fuzzBearer + suffix,
			"source":  prefix + "Bearer " + fuzzBearer + suffix + "/" + prefix + fuzzEmail + suffix,
		})
		if err != nil {
			t.Fatal(err)
		}
		o := r.Report(b, ua)
		if len(b) <= MaxBodyBytes && o == Invalid {
			t.Fatalf("planted report rejected: %s", b)
		}
		r.Flush()

		for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			if !utf8.Valid(line) {
				t.Fatalf("log line not UTF-8: %q", line)
			}
			var ev map[string]any
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("log line not JSON: %v: %s", err, line)
			}
			if ev["msg"] != EventClientError {
				continue
			}
			for field, limit := range map[string]int{"message": MaxMessageRunes, "stack": MaxStackRunes, "path": maxPathRunes, "source": maxPathRunes} {
				s, _ := ev[field].(string)
				if n := utf8.RuneCountInString(s); n > limit {
					t.Fatalf("%s has %d runes, cap %d", field, n, limit)
				}
				for _, secret := range []string{fuzzEmail, fuzzBearer} {
					if strings.Contains(s, secret) {
						t.Fatalf("%s kept %q: %q", field, secret, s)
					}
				}
			}
			switch ev["ua_family"] {
			case FamilyBot, FamilyEdge, FamilyOpera, FamilyFirefox, FamilyChrome, FamilySafari, FamilyOther, FamilyMixed:
			default:
				t.Fatalf("ua_family %v", ev["ua_family"])
			}
		}
	})
}
