package clientreport

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/logging/logtest"
)

const chromeUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

// t0 is the start of a window (whole minute).
var t0 = time.Date(2026, 3, 14, 15, 9, 0, 0, time.UTC)

// harness is a Reporter logging JSON into a buffer, on a fake clock.
type harness struct {
	*Reporter
	clock *clocktest.Clock
	out   *logtest.Buffer
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	h := &harness{clock: clocktest.New(t0), out: &logtest.Buffer{}}
	opts.Now = h.clock.Now
	h.Reporter = New(slog.New(slog.NewJSONHandler(h.out, nil)), opts)
	return h
}

// events decodes every log line written so far.
func (h *harness) events(t testing.TB) []map[string]any {
	t.Helper()
	var evs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(h.out.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, sc.Bytes())
		}
		evs = append(evs, ev)
	}
	return evs
}

func mustOutcome(t testing.TB, got, want Outcome) {
	t.Helper()
	if got != want {
		t.Fatalf("outcome = %v, want %v", got, want)
	}
}

func TestMergeWithinWindow(t *testing.T) {
	h := newHarness(t, Options{})
	const n = 7
	b := body(t, map[string]any{"message": "x is undefined", "path": "/busca", "line": 3, "column": 9})
	for i := range n {
		h.clock.Set(t0.Add(time.Duration(i) * 5 * time.Second))
		want := Merged
		if i == 0 {
			want = Accepted
		}
		mustOutcome(t, h.Report(b, chromeUA), want)
	}
	if evs := h.events(t); len(evs) != 0 {
		t.Fatalf("events before the window closed: %v", evs)
	}
	h.Flush()
	evs := h.events(t)
	if len(evs) != 1 {
		t.Fatalf("got %d events, want 1: %v", len(evs), evs)
	}
	ev := evs[0]
	if ev["count"] != float64(n) {
		t.Errorf("count = %v, want %d", ev["count"], n)
	}
	if ev["first_seen"] != t0.Format(time.RFC3339Nano) || ev["last_seen"] != t0.Add(30*time.Second).Format(time.RFC3339Nano) {
		t.Errorf("first_seen, last_seen = %v, %v", ev["first_seen"], ev["last_seen"])
	}
	h.Flush()
	if len(h.events(t)) != 1 {
		t.Error("a second Flush emitted again")
	}
}

func TestMergeKey(t *testing.T) {
	base := map[string]any{"message": "boom", "path": "/a", "source": "/app.js", "line": 1, "column": 2, "stack": "s1"}
	with := func(k string, v any) map[string]any {
		m := maps.Clone(base)
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		name  string
		other map[string]any
		merge bool
	}{
		{"identical", base, true},
		{"other code", with("code", "UI-APP-001"), false},
		{"other phase", with("phase", "script"), false},
		{"other path", with("path", "/b"), false},
		{"other source", with("source", "/vendor.js"), false},
		{"other line", with("line", 5), false},
		{"other column", with("column", 5), false},
		{"other message", with("message", "bang"), false},
		{"other stack", with("stack", "s2"), true},
		{"other visivel", with("visivel", true), true},
		{"path differs in query only", with("path", "/a?q=1#top"), true},
		{"path as full URL", with("path", "https://okf.example/a"), true},
		{"source differs in host and query", with("source", "https://cdn.example/app.js?v=9"), true},
		{"unknown field", with("ip", "203.0.113.1"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			mustOutcome(t, h.Report(body(t, base), chromeUA), Accepted)
			want := Accepted
			if tc.merge {
				want = Merged
			}
			mustOutcome(t, h.Report(body(t, tc.other), chromeUA), want)
			h.Flush()
			if n, wantN := len(h.events(t)), map[bool]int{true: 1, false: 2}[tc.merge]; n != wantN {
				t.Errorf("%d events, want %d", n, wantN)
			}
		})
	}
}

func TestMergeAfterRedaction(t *testing.T) {
	h := newHarness(t, Options{})
	mustOutcome(t, h.Report(body(t, map[string]any{"message": "no account for ana@example.com"}), chromeUA), Accepted)
	mustOutcome(t, h.Report(body(t, map[string]any{"message": "no account for bia@example.org"}), chromeUA), Merged)
	h.Flush()
	evs := h.events(t)
	if len(evs) != 1 || evs[0]["message"] != "no account for "+markEmail || evs[0]["count"] != float64(2) {
		t.Errorf("events = %v", evs)
	}
}

func TestMergedAttributes(t *testing.T) {
	h := newHarness(t, Options{})
	h.Report(body(t, map[string]any{"stack": "first", "visivel": false}), chromeUA)
	h.Report(body(t, map[string]any{"stack": "second", "visivel": true}), chromeUA)
	h.Report(body(t, map[string]any{"stack": "third"}), "Mozilla/5.0 (X11; rv:125.0) Gecko/20100101 Firefox/125.0")
	h.Report(body(t, map[string]any{"code": "UI-CSP-001"}), chromeUA)
	h.Report(body(t, map[string]any{"code": "UI-CSP-001"}), chromeUA)
	h.Flush()
	evs := h.events(t)
	if len(evs) != 2 {
		t.Fatalf("events = %v", evs)
	}
	if evs[0]["stack"] != "first" || evs[0]["visivel"] != true || evs[0]["ua_family"] != FamilyMixed || evs[0]["count"] != float64(3) {
		t.Errorf("merged event = %v", evs[0])
	}
	if evs[1]["ua_family"] != FamilyChrome || evs[1]["visivel"] != false {
		t.Errorf("second event = %v", evs[1])
	}
}

func TestWindows(t *testing.T) {
	h := newHarness(t, Options{})
	b := body(t, map[string]any{"message": "m"})
	h.clock.Set(t0.Add(10 * time.Second))
	mustOutcome(t, h.Report(b, chromeUA), Accepted)
	h.clock.Set(t0.Add(59 * time.Second))
	mustOutcome(t, h.Report(b, chromeUA), Merged)
	if len(h.events(t)) != 0 {
		t.Fatal("emitted before the window closed")
	}

	// The first report of the next window closes the previous one, even
	// without Run or Flush.
	h.clock.Set(t0.Add(60 * time.Second))
	mustOutcome(t, h.Report(b, chromeUA), Accepted)
	evs := h.events(t)
	if len(evs) != 1 || evs[0]["count"] != float64(2) {
		t.Fatalf("after the window closed: %v", evs)
	}

	// Reports of other failures also close it.
	h.clock.Set(t0.Add(3 * time.Minute))
	mustOutcome(t, h.Report(body(t, map[string]any{"message": "other"}), chromeUA), Accepted)
	evs = h.events(t)
	if len(evs) != 2 || evs[1]["count"] != float64(1) || evs[1]["first_seen"] != t0.Add(time.Minute).Format(time.RFC3339Nano) {
		t.Fatalf("second window: %v", evs)
	}
	h.Flush()
	if evs = h.events(t); len(evs) != 3 || evs[2]["message"] != "other" {
		t.Fatalf("after Flush: %v", evs)
	}
}

func TestCustomWindow(t *testing.T) {
	h := newHarness(t, Options{Window: 10 * time.Second})
	b := body(t, nil)
	mustOutcome(t, h.Report(b, ""), Accepted)
	h.clock.Set(t0.Add(9 * time.Second))
	mustOutcome(t, h.Report(b, ""), Merged)
	h.clock.Set(t0.Add(10 * time.Second))
	mustOutcome(t, h.Report(b, ""), Accepted)
}

func TestMaxPending(t *testing.T) {
	h := newHarness(t, Options{MaxPending: 3})
	report := func(i int) Outcome {
		return h.Report(body(t, map[string]any{"message": fmt.Sprintf("failure %d", i)}), chromeUA)
	}
	for i := range 3 {
		mustOutcome(t, report(i), Accepted)
	}
	h.clock.Set(t0.Add(time.Second))
	mustOutcome(t, report(3), Dropped)
	h.clock.Set(t0.Add(2 * time.Second))
	mustOutcome(t, report(4), Dropped)
	mustOutcome(t, report(0), Merged) // repeats of waiting failures still merge
	mustOutcome(t, report(3), Dropped)

	h.Flush()
	evs := h.events(t)
	if len(evs) != 4 {
		t.Fatalf("got %d events, want 3 + 1 dropped: %v", len(evs), evs)
	}
	for i, ev := range evs[:3] {
		if ev["msg"] != EventClientError || ev["message"] != fmt.Sprintf("failure %d", i) {
			t.Errorf("event %d = %v", i, ev)
		}
	}
	d := evs[3]
	if d["msg"] != EventDropped || d["count"] != float64(3) || d["max_pending"] != float64(3) ||
		d["first_seen"] != t0.Add(time.Second).Format(time.RFC3339Nano) || d["last_seen"] != t0.Add(2*time.Second).Format(time.RFC3339Nano) {
		t.Errorf("dropped event = %v", d)
	}

	// A new window has room again.
	h.clock.Set(t0.Add(time.Minute))
	mustOutcome(t, report(3), Accepted)
}

func TestInvalidIsNotLogged(t *testing.T) {
	h := newHarness(t, Options{})
	for _, b := range []string{"", "null", "[]", `{"code":"UI-JS-001"}`, `{"code":"JS","phase":"global"}`} {
		mustOutcome(t, h.Report([]byte(b), chromeUA), Invalid)
	}
	h.Flush()
	if out := h.out.String(); out != "" {
		t.Errorf("invalid reports logged: %s", out)
	}
}

// TestLogEvent checks the event's exact shape and that nothing a report
// carries beyond the listed fields, and no IP, cookie, query string or
// User-Agent, reaches the log.
func TestLogEvent(t *testing.T) {
	h := newHarness(t, Options{})
	b := body(t, map[string]any{
		"code":    "UI-RECURSO-001",
		"phase":   "load_list",
		"path":    "https://okf.example/busca?q=consulta-privada#resultado",
		"source":  "https://cdn.example/assets/app.js?v=abc123&sig=zz",
		"line":    120,
		"column":  15,
		"visivel": true,
		"message": "GET https://api.example/v1/bundles?token=tok-secret failed for ana@example.com from 198.51.100.23",
		"stack":   "Error: failed\n    at load (https://cdn.example/assets/app.js?v=abc123:120:15)\nCookie: __Host-house-auth=cookie-secret",
		// Fields a careless client might add; all must be ignored.
		"ip":         "203.0.113.77",
		"cookie":     "__Host-house-auth=other-secret",
		"user_agent": chromeUA,
		"headers":    map[string]string{"X-Forwarded-For": "203.0.113.78"},
	})
	mustOutcome(t, h.Report(b, chromeUA), Accepted)
	h.Flush()
	evs := h.events(t)
	if len(evs) != 1 {
		t.Fatalf("events = %v", evs)
	}
	ev := evs[0]
	keys := make([]string, 0, len(ev))
	for k := range ev {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	wantKeys := []string{"code", "column", "count", "first_seen", "last_seen", "level", "line", "message",
		"message_truncated", "msg", "path", "phase", "source", "stack", "stack_truncated", "time", "ua_family", "visivel"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys = %v\nwant %v", keys, wantKeys)
	}
	want := map[string]any{
		"level": "WARN", "msg": "client_error", "code": "UI-RECURSO-001", "phase": "load_list",
		"path": "/busca", "source": "/assets/app.js", "line": float64(120), "column": float64(15),
		"visivel": true, "count": float64(1), "ua_family": "chrome",
		"message":           "GET https://api.example/v1/bundles failed for " + markEmail + " from " + markIP,
		"stack":             "Error: failed\n    at load (https://cdn.example/assets/app.js:120:15)\nCookie: " + markCredential,
		"message_truncated": false, "stack_truncated": false,
	}
	for k, v := range want {
		if ev[k] != v {
			t.Errorf("%s = %#v, want %#v", k, ev[k], v)
		}
	}
	out := h.out.String()
	for _, leak := range []string{
		"203.0.113.", "198.51.100.23", "cookie-secret", "other-secret", "__Host-house-auth", "tok-secret",
		"consulta-privada", "resultado", "abc123", "sig=", "?", "#", "ana@", "Mozilla", "AppleWebKit", "Windows NT", "X-Forwarded-For",
	} {
		if strings.Contains(out, leak) {
			t.Errorf("log output holds %q:\n%s", leak, out)
		}
	}
}

func TestRunClosesWindows(t *testing.T) {
	out := &logtest.Buffer{}
	r := New(slog.New(slog.NewJSONHandler(out, nil)), Options{Window: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		r.Run(ctx)
		close(done)
	}()
	r.Report(body(t, nil), chromeUA)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), EventClientError) {
		if time.Now().After(deadline) {
			t.Fatal("Run did not close the window")
		}
		time.Sleep(5 * time.Millisecond)
	}

	// Whatever is pending when ctx ends is flushed before Run returns.
	r2 := New(slog.New(slog.NewJSONHandler(out, nil)), Options{Window: time.Hour})
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan struct{})
	go func() {
		r2.Run(ctx2)
		close(done2)
	}()
	r2.Report(body(t, map[string]any{"message": "at shutdown"}), chromeUA)
	cancel2()
	<-done2
	if !strings.Contains(out.String(), "at shutdown") {
		t.Error("Run did not flush on exit")
	}
	cancel()
	<-done
}

// TestConcurrentReports runs reports, flushes and window changes at once
// (for -race) and checks that every accepted report is counted once.
func TestConcurrentReports(t *testing.T) {
	h := newHarness(t, Options{MaxPending: 50})
	bodies := make([][]byte, 80)
	for i := range bodies {
		bodies[i] = body(t, map[string]any{"message": fmt.Sprintf("m%d", i)})
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[Outcome]int{}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				o := h.Report(bodies[(g*i)%len(bodies)], chromeUA)
				mu.Lock()
				outcomes[o]++
				mu.Unlock()
				if i%50 == 0 {
					h.Flush()
				}
				if g == 0 && i%40 == 0 {
					h.clock.Set(t0.Add(time.Duration(i) * time.Second))
				}
			}
		}()
	}
	wg.Wait()
	h.Flush()
	counted, dropped := 0, 0
	for _, ev := range h.events(t) {
		switch ev["msg"] {
		case EventClientError:
			counted += int(ev["count"].(float64))
		case EventDropped:
			dropped += int(ev["count"].(float64))
		}
	}
	if counted != outcomes[Accepted]+outcomes[Merged] || dropped != outcomes[Dropped] {
		t.Errorf("counted %d, dropped %d; outcomes %v", counted, dropped, outcomes)
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[Outcome]string{Invalid: "invalid", Accepted: "accepted", Merged: "merged", Dropped: "dropped", Outcome(99): "invalid"} {
		if got := o.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", o, got, want)
		}
	}
}

func TestNewDefaults(t *testing.T) {
	r := New(nil, Options{})
	if r.log == nil || r.window != DefaultWindow || r.maxPending != DefaultMaxPending || r.now == nil {
		t.Errorf("defaults not applied: %+v", r)
	}
}
