package faults

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/usage"
)

// TestFaultReadOnly turns the whole cluster read-only
// (default_transaction_read_only, as a full disk would be handled) under
// the running API, then back. Verdict: while read-only, every ping answers
// 503 unavailable with Retry-After, reads and visits keep answering 200;
// writes work again within 5 s of turning it off; and no visit counted
// meanwhile is lost (the usage flusher kept them).
func TestFaultReadOnly(t *testing.T) {
	r := newRig(t)
	var figures tally
	n := 0
	ping := func() answer {
		n++
		u := fmt.Sprintf("https://%s/ro%d/index.md", siteHost, n)
		return r.send(http.MethodPost, "/api/ping", fmt.Sprintf(`{"host":%q,"key":%q,"urlList":[%q]}`, siteHost, siteKey, u))
	}
	// until sends pings until one answers status, for at most 5 s, and
	// returns how long that took.
	until := func(phase string, status int) time.Duration {
		t.Helper()
		start := time.Now()
		for time.Since(start) < maxRecovery {
			a := ping()
			figures.add(phase, a)
			if a.status == status {
				return time.Since(start)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s: no ping answered %d within %s", phase, status, maxRecovery)
		return 0
	}

	if a := ping(); a.status != http.StatusAccepted {
		t.Fatalf("before: ping answered %s", a.kind())
	}
	r.admin("ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()")
	took := until("turning", http.StatusServiceUnavailable)
	t.Logf("writes refused %s after the reload", took.Round(time.Millisecond))

	visits := 0
	for range 20 {
		if a := ping(); a.status != http.StatusServiceUnavailable || a.name != "unavailable" || a.retryAfter == "" {
			t.Errorf("read-only: ping answered %s (Retry-After %q)", a.kind(), a.retryAfter)
		} else {
			figures.add("readonly", a)
		}
		for _, path := range reads {
			a := r.send(http.MethodGet, path, "")
			figures.add("readonly", a)
			if a.status != http.StatusOK {
				t.Errorf("read-only: GET %s answered %s", path, a.kind())
			}
		}
		a := r.send(http.MethodPost, "/api/visit", "{}")
		figures.add("readonly", a)
		if a.status != http.StatusOK {
			t.Errorf("read-only: POST /api/visit answered %s", a.kind())
		} else {
			visits++
		}
		time.Sleep(100 * time.Millisecond) // across several usage flushes
	}

	r.admin("SET default_transaction_read_only = off", "ALTER SYSTEM RESET default_transaction_read_only", "SELECT pg_reload_conf()")
	took = until("after", http.StatusAccepted)
	t.Logf("writes accepted again %s after the reload", took.Round(time.Millisecond))
	t.Logf("answers by phase and kind:%s", figures.String())

	start := time.Now()
	for got := int64(-1); got != int64(visits); {
		if time.Since(start) > maxRecovery {
			t.Fatalf("%d visits counted after read-only, want %d", got, visits)
		}
		time.Sleep(100 * time.Millisecond)
		rows, err := r.st.Usage(t.Context(), time.Now(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		got = 0
		for _, row := range rows {
			if row.Metric == usage.Visit {
				got = row.N
			}
		}
	}
	if !strings.Contains(r.logs.String(), `"msg":"usage flush failed; the counts stay pending"`) {
		t.Error("no usage flush failed while read-only: the run did not test keeping the counts")
	}
	t.Logf("all %d visits counted while read-only reached the database %s after writes came back", visits, time.Since(start).Round(time.Millisecond))
}
