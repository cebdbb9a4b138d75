package worker_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// A job the worker completes shows on its operator listener's scrape: the
// process's own count of finished attempts (okf_river_jobs_total) with its
// run time, and the database's count of jobs by state (okf_river_jobs).
func TestJobMetricsAfterAJobCompletes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st := storetest.NewStore(t)
	reg := ops.NewRegistry(st, log)
	client, err := worker.NewClient(worker.Options{Store: st, Logger: log, Metrics: reg})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := client.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	ln, err := ops.Listen("127.0.0.1:0", ops.NewHandler(ops.Options{Ready: st.Ping, Gatherer: reg, Logger: log}), log)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Shutdown(context.Background())

	// The periodic recount runs on start.
	want := []string{
		`okf_river_jobs_total{kind="recount_stats",state="completed"} 1`,
		`okf_river_job_duration_seconds_count{kind="recount_stats",state="completed"} 1`,
		`okf_river_jobs{kind="recount_stats",state="completed"} 1`,
	}
	var body string
	for {
		body = scrape(t, "http://"+ln.Addr().String()+ops.MetricsPath)
		missing := 0
		for _, w := range want {
			if !strings.Contains(body, w) {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("scrape never showed %q:\n%s", want, body)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}
