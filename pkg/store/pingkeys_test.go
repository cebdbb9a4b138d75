package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// Submissions with made-up keys (IndexNow keys are public) fill their own
// part of the cap: the owner, whose key has matched before, keeps 200.
func TestPingCapApartForProvenKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	const host = "owner.example"
	if err := st.RecordProvenKey(ctx, host, testPingKey); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordProvenKey(ctx, host, testPingKey); err != nil {
		t.Fatalf("recording a proven key twice: %v", err)
	}
	for i, key := range []string{"attacker-key-1", "attacker-key-2"} {
		if _, err := st.AcceptPing(ctx, host, key, pingURLs(host, i*100, 100), noEnqueue); err != nil {
			t.Fatalf("unproven submission %d: %v", i, err)
		}
	}
	if _, err := st.AcceptPing(ctx, host, "attacker-key-3", pingURLs(host, 200, 1), noEnqueue); !errors.Is(err, store.ErrPingDailyCap) {
		t.Fatalf("unproven 201st URL: %v, want the cap", err)
	}
	for i := range 2 {
		if _, err := st.AcceptPing(ctx, host, testPingKey, pingURLs(host, 300+i*100, 100), noEnqueue); err != nil {
			t.Fatalf("the owner's submission %d after 200 unproven URLs: %v", i, err)
		}
	}
	if _, err := st.AcceptPing(ctx, host, testPingKey, pingURLs(host, 500, 1), noEnqueue); !errors.Is(err, store.ErrPingDailyCap) {
		t.Fatalf("the owner's 201st URL: %v, want the cap", err)
	}
	// A key proven on one host counts as unproven on another.
	if err := st.RecordProvenKey(ctx, "other.example", "attacker-key-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcceptPing(ctx, host, "attacker-key-1", pingURLs(host, 600, 1), noEnqueue); !errors.Is(err, store.ErrPingDailyCap) {
		t.Fatalf("a key proven elsewhere: %v, want the unproven cap", err)
	}
}

// Fault run: the UTC day changes during a burst of submissions from many
// hosts. Each host's cap resets exactly once: 200 URLs on each day, no
// more, no fewer, and every accepted URL counted on the day it was
// received.
func TestFaultPingCapAcrossMidnight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	clk.Advance(12*time.Hour - 3*time.Second) // 2026-03-01 23:59:57 UTC
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(ctx, store.Config{URL: dbURL, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	const hosts, perHost, size = 5, 60, 10 // 600 URLs a host, 3 caps' worth
	// Each host sends until 21 of its submissions (210 URLs, past the cap)
	// were answered before midnight, then waits for it; midnight passes
	// once every host got there, while the other submissions are still in
	// flight, and the rest (at least 370 URLs a host) comes after.
	const beforeMidnight = 21
	var accepted, answered [hosts]atomic.Int64
	var ready atomic.Int64
	flipped := make(chan struct{})
	var wg sync.WaitGroup
	for h := range hosts {
		host := fmt.Sprintf("h%d.example", h)
		for g := range 3 { // three submitters a host
			wg.Go(func() {
				for i := g; i < perHost; i += 3 {
					if answered[h].Load() >= beforeMidnight {
						<-flipped
					}
					_, err := st.AcceptPing(ctx, host, testPingKey, pingURLs(host, i*size, size), noEnqueue)
					switch {
					case err == nil:
						accepted[h].Add(size)
					case !errors.Is(err, store.ErrPingDailyCap):
						t.Error(err)
					}
					if answered[h].Add(1) == beforeMidnight && ready.Add(1) == hosts {
						clk.Advance(5 * time.Second) // midnight passes mid-burst
						close(flipped)
					}
				}
			})
		}
	}
	wg.Wait()

	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for h := range hosts {
		host := fmt.Sprintf("h%d.example", h)
		if got := accepted[h].Load(); got != 400 {
			t.Errorf("%s: %d URLs accepted over two days, want 200 + 200", host, got)
		}
		rows, err := pool.Query(ctx, `
			SELECT d.day::text, d.n + d.n_unproven, (SELECT count(*) FROM pings p
				WHERE p.host = d.host AND (p.received_at AT TIME ZONE 'UTC')::date = d.day)
			FROM ping_daily d WHERE d.host = $1 ORDER BY d.day`, host)
		if err != nil {
			t.Fatal(err)
		}
		var days []string
		for rows.Next() {
			var day string
			var n, received int64
			if err := rows.Scan(&day, &n, &received); err != nil {
				t.Fatal(err)
			}
			days = append(days, day)
			if n != 200 || received != 200 {
				t.Errorf("%s on %s: counted %d, received %d, want 200 each", host, day, n, received)
			}
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		if len(days) != 2 || days[0] != "2026-03-01" || days[1] != "2026-03-02" {
			t.Errorf("%s: cap rows for days %v, want 2026-03-01 and 2026-03-02", host, days)
		}
	}
}
