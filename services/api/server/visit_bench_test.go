package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// BenchmarkVisits2000Concurrent sends 2,000 visits at once to a real API
// over loopback, then checks that the day's counter moved by exactly 2,000
// (no lost increments). It reports the visits per second and the p50 and
// p99 latency of one visit.
func BenchmarkVisits2000Concurrent(b *testing.B) {
	const visits = 2000
	st := storetest.NewStore(b)
	cfg, err := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": publicBase}[k] })
	if err != nil {
		b.Fatal(err)
	}
	srv, err := New(st, Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: visits, MaxConnsPerHost: 0}}

	var latencies []time.Duration
	var mu sync.Mutex
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		var wg sync.WaitGroup
		for range visits {
			wg.Go(func() {
				t0 := time.Now()
				resp, err := client.Post(hs.URL+"/api/visit", "application/json", nil)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
				}
				mu.Lock()
				latencies = append(latencies, time.Since(t0))
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	elapsed := time.Since(start)
	b.StopTimer()

	if err := srv.usage.Flush(b.Context()); err != nil {
		b.Fatal(err)
	}
	m, err := srv.metrics.Read(b.Context(), time.Now())
	if err != nil {
		b.Fatal(err)
	}
	if want := int64(visits * b.N); m.TodayVisits != want {
		b.Fatalf("today_visits %d after %d visits: increments were lost", m.TodayVisits, want)
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(visits*b.N)/elapsed.Seconds(), "visits/s")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
}
