package store_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// TestOpenUsageDayOneSaltPerDay: concurrent replicas opening a day get the
// same salt; another day has another; a closed day is ErrDayClosed.
func TestOpenUsageDayOneSaltPerDay(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := t.Context()
	day := time.Date(2026, 11, 26, 13, 0, 0, 0, time.UTC)
	salts := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range salts {
		wg.Go(func() {
			s, err := st.OpenUsageDay(ctx, day)
			if err != nil {
				t.Error(err)
			}
			salts[i] = s
		})
	}
	wg.Wait()
	for _, s := range salts {
		if len(s) != 32 || !bytes.Equal(s, salts[0]) {
			t.Fatalf("salts differ: %x", salts)
		}
	}
	other, err := st.OpenUsageDay(ctx, day.AddDate(0, 0, 1))
	if err != nil || bytes.Equal(other, salts[0]) {
		t.Fatalf("the next day: %x %v", other, err)
	}
	if err := st.AddVisitors(ctx, day, [][]byte{[]byte("12345678"), []byte("12345678"), []byte("abcdefgh")}); err != nil {
		t.Fatal(err)
	}
	if n, err := st.CloseUsageDays(ctx, day.AddDate(0, 0, 1)); err != nil || n != 1 {
		t.Fatalf("close: %d %v", n, err)
	}
	if n, err := st.CloseUsageDays(ctx, day.AddDate(0, 0, 1)); err != nil || n != 0 {
		t.Fatalf("close again: %d %v", n, err)
	}
	if _, err := st.OpenUsageDay(ctx, day); err != store.ErrDayClosed {
		t.Errorf("a closed day: %v, want ErrDayClosed", err)
	}
	days, err := st.MeasuredDays(ctx, day, day.AddDate(0, 0, 1))
	if err != nil || len(days) != 2 || days[0].Visitors != 2 || days[1].Visitors != 0 {
		t.Errorf("measured days %+v %v", days, err)
	}
}

// TestPublishVitrineOncePerHour: the first publication of an hour stays;
// a later hour replaces it; an earlier one never does.
func TestPublishVitrineOncePerHour(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := t.Context()
	if _, ok, err := st.PublicProjection(ctx, "okf"); ok || err != nil {
		t.Fatalf("before any publication: %v %v", ok, err)
	}
	at := time.Date(2026, 11, 26, 10, 2, 0, 0, time.UTC)
	docs := func(n string) map[string][]byte {
		return map[string][]byte{store.VitrinePublic: []byte(`{"n":` + n + `}`), store.VitrinePanel: []byte(`{"apps":[]}`)}
	}
	for _, tc := range []struct {
		at    time.Time
		n     string
		wrote bool
		want  string
	}{
		{at, "1", true, `{"n":1}`},
		{at.Add(50 * time.Minute), "2", false, `{"n":1}`},
		{at.Add(time.Hour), "3", true, `{"n":3}`},
		{at, "4", false, `{"n":3}`},
	} {
		wrote, err := st.PublishVitrine(ctx, "okf", tc.at, docs(tc.n))
		if err != nil || wrote != tc.wrote {
			t.Fatalf("publish %s at %s: %v %v", tc.n, tc.at, wrote, err)
		}
		d, ok, err := st.PublicProjection(ctx, "okf")
		if err != nil || !ok || string(d.Doc) != tc.want {
			t.Errorf("after publish %s: %s %v", tc.n, d.Doc, err)
		}
	}
	if _, ok, _ := st.VitrineDocument(ctx, "okf", store.VitrineCursors); ok {
		t.Error("a kind never published was found")
	}
}
