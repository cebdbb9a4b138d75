package store_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestUsageAddsAndReads(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := t.Context()
	d1 := time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC)
	d2 := d1.Add(2 * time.Minute) // the next UTC day
	err := st.AddUsage(ctx, "00000000-0000-4000-8000-000000000001", []store.UsageDelta{
		{Day: d1, Metric: "okf_visit", N: 2},
		{Day: d1, Metric: "okf_visit", N: 3}, // same day and metric: summed
		{Day: d2, Metric: "okf_visit", N: 1},
		{Day: d2, Metric: "okf_api", N: 7},
		{Day: d2, Metric: "okf_mcp", N: 0}, // nothing to add: no row
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddUsage(ctx, "00000000-0000-4000-8000-000000000002", []store.UsageDelta{{Day: d1, Metric: "okf_visit", N: 10}}); err != nil {
		t.Fatal(err)
	}
	// A retry of a flush already applied adds nothing.
	if err := st.AddUsage(ctx, "00000000-0000-4000-8000-000000000002", []store.UsageDelta{{Day: d1, Metric: "okf_visit", N: 10}}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Usage(ctx, d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-11-25 okf_visit 15", "2026-11-26 okf_api 7", "2026-11-26 okf_visit 1"}
	if len(got) != len(want) {
		t.Fatalf("usage %+v, want %v", got, want)
	}
	for i, c := range got {
		if s := c.Day.Format(time.DateOnly) + " " + c.Metric + " " + strconv.FormatInt(c.N, 10); s != want[i] {
			t.Errorf("row %d: %s, want %s", i, s, want[i])
		}
	}
	if rows, _ := st.Usage(ctx, d2.AddDate(0, 0, 1), d2.AddDate(0, 0, 5)); len(rows) != 0 {
		t.Errorf("days never counted: %+v", rows)
	}
	if err := st.AddUsage(ctx, "00000000-0000-4000-8000-000000000003", []store.UsageDelta{{Day: d1, Metric: "Bad Metric", N: 1}}); err == nil {
		t.Error("a malformed metric name was stored")
	}
}

// TestUsageConcurrentFlushes: flushes of several replicas at once, each
// touching the same rows in any order, lose nothing and never deadlock.
func TestUsageConcurrentFlushes(t *testing.T) {
	st := storetest.NewStore(t)
	day := time.Now()
	metrics := []string{"okf_a", "okf_b", "okf_c", "okf_d"}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			var deltas []store.UsageDelta
			for j := range metrics {
				deltas = append(deltas, store.UsageDelta{Day: day, Metric: metrics[(i+j)%len(metrics)], N: 1})
			}
			id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
			if err := st.AddUsage(t.Context(), id, deltas); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := st.Usage(t.Context(), day, day)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if c.N != 40 {
			t.Errorf("%s = %d, want 40", c.Metric, c.N)
		}
	}
	if len(got) != len(metrics) {
		t.Errorf("%d metrics, want %d", len(got), len(metrics))
	}
}
