package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// noEnqueue stands for the River insert of the API.

// testPingKey is the IndexNow key of the submissions of these tests.
const testPingKey = "0123456789abcdef"

func noEnqueue(context.Context, pgx.Tx, []store.PingURL) error { return nil }

func pingURLs(host string, from, n int) []string {
	var out []string
	for i := from; i < from+n; i++ {
		out = append(out, fmt.Sprintf("https://%s/b%d/index.md", host, i))
	}
	return out
}

// A submission is recorded pending, then published or rejected; the status
// lists the host's URLs newest first and nothing of another host.
func TestPingLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClock()
	st, err := store.Open(ctx, store.Config{URL: storetest.NewDatabase(t), Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	first, err := st.AcceptPing(ctx, "docs.example", testPingKey, pingURLs("docs.example", 0, 2), noEnqueue)
	if err != nil || len(first) != 2 || first[0].URL != "https://docs.example/b0/index.md" {
		t.Fatalf("accept: %v %+v", err, first)
	}
	if _, err := st.AcceptPing(ctx, "other.example", testPingKey, pingURLs("other.example", 0, 1), noEnqueue); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	if err := st.PublishPing(ctx, first[0].ID, "docs-example-b0-abc"); err != nil {
		t.Fatal(err)
	}
	if err := st.RejectPing(ctx, first[1].ID, "key_mismatch"); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	again, err := st.AcceptPing(ctx, "docs.example", testPingKey, pingURLs("docs.example", 0, 1), noEnqueue)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := st.PendingPings(ctx, []int64{first[0].ID, first[1].ID, again[0].ID})
	if err != nil || len(pending) != 1 || !pending[again[0].ID] {
		t.Fatalf("pending %v %v", pending, err)
	}

	got, err := st.PingStatuses(ctx, "docs.example", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("statuses %+v", got)
	}
	if got[0].Estado != wire.PingPending || got[0].CheckedAt != nil || got[0].BundleID != nil || got[0].Reason != nil {
		t.Errorf("re-ping %+v", got[0])
	}
	byURL := map[string]wire.PingStatus{got[1].URL: got[1], got[2].URL: got[2]}
	pub, rej := byURL["https://docs.example/b0/index.md"], byURL["https://docs.example/b1/index.md"]
	if pub.Estado != wire.PingPublished || pub.BundleID == nil || *pub.BundleID != "docs-example-b0-abc" || pub.CheckedAt == nil ||
		!pub.CheckedAt.Equal(c.Now().Add(-time.Minute)) || !pub.ReceivedAt.Equal(c.Now().Add(-2*time.Minute)) {
		t.Errorf("published %+v", pub)
	}
	if rej.Estado != wire.PingRejected || rej.Reason == nil || *rej.Reason != "key_mismatch" || rej.BundleID != nil {
		t.Errorf("rejected %+v", rej)
	}
	if none, err := st.PingStatuses(ctx, "nobody.example", 100); err != nil || none == nil || len(none) != 0 {
		t.Errorf("unknown host: %v %v", none, err)
	}
}

// The daily cap is all-or-nothing per submission, per host and per UTC day,
// and a failed enqueue rolls the count back.
func TestPingDailyCap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClock()
	st, err := store.Open(ctx, store.Config{URL: storetest.NewDatabase(t), Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 0, 100), noEnqueue); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("queue down")
	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 100, 50),
		func(context.Context, pgx.Tx, []store.PingURL) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("failed enqueue: %v", err)
	}
	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 100, 99), noEnqueue); err != nil {
		t.Fatalf("199 of 200: %v", err)
	}
	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 199, 2), noEnqueue); !errors.Is(err, store.ErrPingDailyCap) {
		t.Fatalf("201 of 200: %v", err)
	}
	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 199, 1), noEnqueue); err != nil {
		t.Fatalf("200 of 200: %v", err)
	}
	if _, err := st.AcceptPing(ctx, "b.example", testPingKey, pingURLs("b.example", 0, 1), noEnqueue); err != nil {
		t.Fatalf("another host: %v", err)
	}
	c.Advance(12 * time.Hour) // 2026-03-02 00:00 UTC: a new day
	if _, err := st.AcceptPing(ctx, "a.example", testPingKey, pingURLs("a.example", 0, 100), noEnqueue); err != nil {
		t.Fatalf("next day: %v", err)
	}
	got, err := st.PingStatuses(ctx, "a.example", 1000)
	if err != nil || len(got) != store.MaxPingStatus {
		t.Fatalf("statuses capped at %d: %d %v", store.MaxPingStatus, len(got), err)
	}
}

// Concurrent submissions never take a host past the cap.
func TestPingDailyCapConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.NewStore(t)
	var accepted, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			_, err := st.AcceptPing(ctx, "c.example", testPingKey, pingURLs("c.example", i*7, 7), noEnqueue)
			switch {
			case err == nil:
				accepted.Add(7)
			case errors.Is(err, store.ErrPingDailyCap):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// 28 submissions of 7 fit (196); the 12 others are refused.
	if accepted.Load() != 196 || refused.Load() != 12 {
		t.Fatalf("accepted %d URLs, refused %d submissions", accepted.Load(), refused.Load())
	}
}
