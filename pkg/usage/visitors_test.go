package usage

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// visitorsOf reads the distinct visitors of a day.
func visitorsOf(t *testing.T, st *store.Store, day time.Time) (int64, bool) {
	t.Helper()
	days, err := st.MeasuredDays(t.Context(), day, day)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) == 0 {
		return 0, false
	}
	return days[0].Visitors, true
}

// TestVisitorsAreDistinctPerDay: concurrent visits from a few clients and
// browser families count each pair once a day, across flushes and across
// two counters (two replicas share the day's salt); no address reaches the
// database; a closed day takes no more visitors.
func TestVisitorsAreDistinctPerDay(t *testing.T) {
	st := storetest.NewStore(t)
	clock := clocktest.New(time.Date(2026, 11, 26, 23, 59, 0, 0, time.UTC))
	replicas := []*Counter{New(st, nil, clock.Now), New(st, nil, clock.Now)}
	clients := []string{"192.0.2.1/32", "192.0.2.2/32", "2001:db8:1::/64"}
	var wg sync.WaitGroup
	for i := range 600 {
		wg.Go(func() {
			c := replicas[i%2]
			c.AddVisitor(netip.MustParsePrefix(clients[i%3]), []string{"firefox", "chrome"}[i%4/2])
		})
	}
	wg.Wait()
	for _, c := range replicas {
		if err := c.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	day := clock.Now()
	if n, ok := visitorsOf(t, st, day); !ok || n != 6 {
		t.Errorf("visitors %d (measured %v), want 3 clients x 2 families", n, ok)
	}
	// Again the next second: nothing new.
	replicas[1].AddVisitor(netip.MustParsePrefix(clients[0]), "firefox")
	if err := replicas[1].Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n, _ := visitorsOf(t, st, day); n != 6 {
		t.Errorf("a returning visitor counted again: %d", n)
	}

	// Only 8-byte hashes are stored: no address, no family.
	var dump string
	if err := st.Pool().QueryRow(t.Context(), `SELECT coalesce(string_agg(t::text, ' '), '') FROM usage_visitors t`).Scan(&dump); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"192.0.2", "2001:db8", "firefox", "chrome"} {
		if strings.Contains(dump, leak) {
			t.Errorf("usage_visitors holds %q: %s", leak, dump)
		}
	}

	// Past midnight, a visit of the new day; the old day closes (its salt
	// gone) and a late visitor of it is dropped, not counted under a new salt.
	late := New(st, nil, clock.Now)
	late.AddVisitor(netip.MustParsePrefix("198.51.100.7/32"), "safari") // still the old day
	clock.Advance(2 * time.Minute)
	replicas[0].AddVisitor(netip.MustParsePrefix(clients[0]), "firefox")
	if err := replicas[0].Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n, ok := visitorsOf(t, st, clock.Now()); !ok || n != 1 {
		t.Errorf("the new day: %d visitors (measured %v), want 1", n, ok)
	}
	if closed, err := st.CloseUsageDays(t.Context(), clock.Now()); err != nil || closed != 1 {
		t.Fatalf("close: %d %v", closed, err)
	}
	if err := late.Flush(t.Context()); err != nil {
		t.Fatalf("a late visitor of a closed day: %v", err)
	}
	if n, _ := visitorsOf(t, st, day); n != 6 {
		t.Errorf("the closed day: %d visitors, want 6", n)
	}
	var salt []byte
	if err := st.Pool().QueryRow(t.Context(), `SELECT visitor_salt FROM usage_days WHERE day = $1::date`, day.Format(time.DateOnly)).Scan(&salt); err != nil || salt != nil {
		t.Errorf("the closed day's salt: %x %v, want it thrown away", salt, err)
	}
}

// TestVisitorsOfAFailedFlushStayPending: a database that refuses keeps the
// visitors for the next flush.
func TestVisitorsOfAFailedFlushStayPending(t *testing.T) {
	st := storetest.NewStore(t)
	c := New(st, nil, nil)
	for i := range 5 {
		c.AddVisitor(netip.MustParsePrefix(fmt.Sprintf("192.0.2.%d/32", i+1)), "firefox")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Flush(ctx); err == nil {
		t.Fatal("a flush with a cancelled context succeeded")
	}
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n, _ := visitorsOf(t, st, time.Now()); n != 5 {
		t.Errorf("%d visitors after the retry, want 5", n)
	}
}

// TestPendingVisitorsAreBounded: a flood past maxPendingVisitors between
// two flushes is dropped, not held.
func TestPendingVisitorsAreBounded(t *testing.T) {
	c := New(nil, nil, nil)
	for i := range maxPendingVisitors + 10 {
		c.AddVisitor(netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), 32), "chrome")
	}
	if n := len(c.visitors); n != maxPendingVisitors {
		t.Errorf("%d pending visitors, want the bound %d", n, maxPendingVisitors)
	}
	if err := c.Flush(t.Context()); err != nil || len(c.visitors) != 0 {
		t.Errorf("a flush without a store: %v, %d left", err, len(c.visitors))
	}
}

// BenchmarkAddVisitor is the hot-path cost of counting a visitor: a map
// insert under the counter's lock, no database.
func BenchmarkAddVisitor(b *testing.B) {
	c := New(nil, nil, nil)
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			c.AddVisitor(netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 32), "firefox")
		}
	})
}
