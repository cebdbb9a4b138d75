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
	pending, err := st.TakePendingPings(ctx, []int64{first[0].ID, first[1].ID, again[0].ID}, 7)
	if err != nil || len(pending) != 1 || !pending[again[0].ID] {
		t.Fatalf("pending %v %v", pending, err)
	}

	page, err := st.PingStatuses(ctx, "docs.example", 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := page.Items
	if len(got) != 3 {
		t.Fatalf("statuses %+v", got)
	}
	if got[0].State != wire.PingPending || got[0].CheckedAt != nil || got[0].BundleID != nil || got[0].Reason != nil {
		t.Errorf("re-ping %+v", got[0])
	}
	byURL := map[string]wire.PingStatus{got[1].URL: got[1], got[2].URL: got[2]}
	pub, rej := byURL["https://docs.example/b0/index.md"], byURL["https://docs.example/b1/index.md"]
	if pub.State != wire.PingPublished || pub.BundleID == nil || *pub.BundleID != "docs-example-b0-abc" || pub.CheckedAt == nil ||
		!pub.CheckedAt.Equal(c.Now().Add(-time.Minute)) || !pub.ReceivedAt.Equal(c.Now().Add(-2*time.Minute)) {
		t.Errorf("published %+v", pub)
	}
	if rej.State != wire.PingRejected || rej.Reason == nil || *rej.Reason != "key_mismatch" || rej.BundleID != nil {
		t.Errorf("rejected %+v", rej)
	}
	if none, err := st.PingStatuses(ctx, "nobody.example", 100, 0); err != nil || none.Items == nil || len(none.Items) != 0 || none.Next != 0 {
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
	// 300 URLs in pages of at most MaxPingStatus, newest first, each once.
	seen, pages := map[string]bool{}, 0
	for after := int64(0); ; pages++ {
		got, err := st.PingStatuses(ctx, "a.example", 1000, after)
		if err != nil || len(got.Items) == 0 || len(got.Items) > store.MaxPingStatus {
			t.Fatalf("page after %d: %d items %v", after, len(got.Items), err)
		}
		for _, p := range got.Items {
			if seen[p.URL+p.ReceivedAt.String()] {
				t.Fatalf("%s on two pages", p.URL)
			}
			seen[p.URL+p.ReceivedAt.String()] = true
		}
		if after = got.Next; after == 0 {
			break
		}
	}
	if len(seen) != 300 || pages != 2 {
		t.Errorf("%d URLs over %d pages, want 300 over 3", len(seen), pages+1)
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

// A pending URL whose verify_ping job is retrying shows the reason the
// worker recorded for the failed attempt, worker_lost after the rescuer's
// error (a crash), worker_error after an error the worker did not record,
// and the job's scheduled_at as retry_at while the job waits.
func TestPingStatusRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	urls, err := st.AcceptPing(ctx, "r.example", testPingKey, pingURLs("r.example", 0, 2), noEnqueue)
	if err != nil {
		t.Fatal(err)
	}
	retryAt := time.Date(2026, 3, 1, 12, 30, 0, 0, time.UTC)
	var jobID int64
	if err := st.Pool().QueryRow(ctx, `INSERT INTO river_job (kind, args, state, attempt, max_attempts, scheduled_at, queue, priority)
		VALUES ('verify_ping', '{}', 'running', 1, 6, $1, 'default', 1) RETURNING id`, retryAt).Scan(&jobID); err != nil {
		t.Fatal(err)
	}
	ids := []int64{urls[0].ID, urls[1].ID}
	if _, err := st.TakePendingPings(ctx, ids, jobID); err != nil {
		t.Fatal(err)
	}
	status := func() map[string]wire.PingStatus {
		t.Helper()
		page, err := st.PingStatuses(ctx, "r.example", 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]wire.PingStatus{}
		for _, p := range page.Items {
			out[p.URL] = p
		}
		return out
	}
	fail := func(attempt int, text string) {
		t.Helper()
		if _, err := st.Pool().Exec(ctx, `UPDATE river_job SET state = 'retryable', attempt = $2::int,
			errors = coalesce(errors, '{}') || jsonb_build_object('at', now(), 'attempt', $2::int, 'error', $3::text)
			WHERE id = $1`, jobID, attempt, text); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step, url, reason string, retry bool) {
		t.Helper()
		p := status()[url]
		if p.State != wire.PingPending || p.Reason == nil || *p.Reason != reason || (p.RetryAt != nil) != retry ||
			(retry && !p.RetryAt.Equal(retryAt)) {
			t.Errorf("%s: %s: %+v, want reason %s, retry_at %v", step, url, p, reason, retry)
		}
	}
	if p := status()[urls[0].URL]; p.Reason != nil || p.RetryAt != nil {
		t.Errorf("first attempt running: %+v", p)
	}
	if err := st.NotePingRetry(ctx, ids[:1], 1, "key_unreachable:timeout"); err != nil {
		t.Fatal(err)
	}
	if err := st.NotePingRetry(ctx, ids[:1], 1, "attempt_timeout"); err != nil { // the first reason stays
		t.Fatal(err)
	}
	fail(1, "worker: verify ping r.example: key file: timeout")
	check("noted", urls[0].URL, "key_unreachable:timeout", true)
	check("not noted", urls[1].URL, store.PingRetryWorkerError, true)
	fail(2, "Stuck job rescued by JobRescuer")
	check("rescued", urls[0].URL, store.PingRetryWorkerLost, true)
	if _, err := st.Pool().Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 3 WHERE id = $1`, jobID); err != nil {
		t.Fatal(err)
	}
	check("running again", urls[0].URL, store.PingRetryWorkerLost, false)
	if err := st.PublishPing(ctx, urls[0].ID, "r-example-b0"); err != nil {
		t.Fatal(err)
	}
	if p := status()[urls[0].URL]; p.State != wire.PingPublished || p.Reason != nil || p.RetryAt != nil {
		t.Errorf("published: %+v", p)
	}
}
