package usage

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// counts reads the stored counters of day as metric → n.
func counts(t *testing.T, st *store.Store, day time.Time) map[string]int64 {
	t.Helper()
	rows, err := st.Usage(t.Context(), day, day)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Metric] = r.N
	}
	return out
}

func TestConcurrentAddsAreCountedExactly(t *testing.T) {
	st := storetest.NewStore(t)
	c := New(st, nil, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { c.Run(ctx, 5*time.Millisecond); close(done) }()

	var wg sync.WaitGroup
	for i := range 2000 {
		wg.Go(func() {
			c.Add(Visit, 1)
			if i%2 == 0 {
				c.Add(API, 1)
			}
		})
	}
	wg.Wait()
	cancel()
	<-done // Run flushes once more on the way out
	got := counts(t, st, time.Now())
	if got[Visit] != 2000 || got[API] != 1000 {
		t.Errorf("counts %v, want 2000 visits and 1000 API calls", got)
	}
}

func TestFailedFlushKeepsCounts(t *testing.T) {
	st := storetest.NewStore(t)
	c := New(st, nil, nil)
	c.Add(MCP, 3)
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Flush(canceled); err == nil {
		t.Fatal("a flush with a canceled context succeeded")
	}
	c.Add(MCP, 2)
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, st, time.Now()); got[MCP] != 5 {
		t.Errorf("counts %v, want the 3 kept from the failed flush plus 2", got)
	}
	if err := c.Flush(t.Context()); err != nil { // nothing pending: no write
		t.Fatal(err)
	}
	if got := counts(t, st, time.Now()); got[MCP] != 5 {
		t.Errorf("an empty flush changed the counts: %v", got)
	}
}

func TestCountsGoToTheirUTCDay(t *testing.T) {
	st := storetest.NewStore(t)
	var clock atomic.Int64
	clock.Store(time.Date(2026, 11, 25, 23, 59, 59, 0, time.UTC).UnixNano())
	c := New(st, nil, func() time.Time { return time.Unix(0, clock.Load()) })
	c.Add(Visit, 1)
	clock.Add(int64(2 * time.Second)) // 2026-11-26 00:00:01 UTC
	c.Add(Visit, 1)
	c.Add(Visit, 1)
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, st, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)); got[Visit] != 1 {
		t.Errorf("2026-11-25: %v", got)
	}
	if got := counts(t, st, time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)); got[Visit] != 2 {
		t.Errorf("2026-11-26: %v", got)
	}
}

// TestCanceledFlushesCountOnce cancels flushes at random points, before,
// during and after their commit: whatever the outcome each one saw, the
// final count is exactly what was added.
func TestCanceledFlushesCountOnce(t *testing.T) {
	st := storetest.NewStore(t)
	c := New(st, nil, nil)
	added := int64(0)
	for i := range 200 {
		c.Add(Visit, 1)
		added++
		ctx, cancel := context.WithTimeout(t.Context(), time.Duration(i%40)*50*time.Microsecond)
		_ = c.Flush(ctx) // any outcome
		cancel()
	}
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, st, time.Now()); got[Visit] != added {
		t.Errorf("counted %d, added %d", got[Visit], added)
	}
}

// TestReadOnlyDatabaseKeepsCounts: while the database refuses writes (read
// only, as on a full disk) every flush fails as unavailable and keeps its
// counts; once writes come back, one flush writes them all, exactly once.
func TestReadOnlyDatabaseKeepsCounts(t *testing.T) {
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(t.Context(), store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, _ := url.Parse(dbURL)
	readOnly := func(on bool) {
		t.Helper()
		conn, err := pgx.Connect(t.Context(), storetest.AdminURL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		db := pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize()
		sql := "ALTER DATABASE " + db + " RESET default_transaction_read_only"
		if on {
			sql = "ALTER DATABASE " + db + " SET default_transaction_read_only = on"
		}
		if _, err := conn.Exec(t.Context(), sql); err != nil {
			t.Fatal(err)
		}
		st.Pool().Reset() // new sessions take the database's setting
	}

	c := New(st, nil, nil)
	c.Add(Visit, 2)
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	readOnly(true)
	for i := range 3 {
		c.Add(Visit, 1)
		c.Add(API, 10)
		err := c.Flush(t.Context())
		if cause := store.UnavailableCause(err); cause != "read_only_sql_transaction (25006)" {
			t.Fatalf("flush %d on a read-only database: %v (cause %q)", i, err, cause)
		}
	}
	if got := counts(t, st, time.Now()); got[Visit] != 2 || got[API] != 0 {
		t.Errorf("read-only: counts %v, want only the first flush", got)
	}
	readOnly(false)
	c.Add(Visit, 1)
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, st, time.Now()); got[Visit] != 6 || got[API] != 30 {
		t.Errorf("after read-only: counts %v, want 6 visits and 30 API calls", got)
	}
}
