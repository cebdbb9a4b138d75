package ops

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// StatsTimeout bounds the database reads of one scrape, so a slow database
// delays a scrape by at most this much.
const StatsTimeout = 3 * time.Second

// Source is what the collectors read: *store.Store.
type Source interface {
	PoolStats() []store.PoolStat
	OpsStats(context.Context) (store.OpsStats, error)
}

// NewRegistry returns a process's registry with the Go runtime and process
// collectors and both collectors of src (and the link collector when src is
// a LinkSource). Each binary has its own registry
// (never the global one), so tests can run several in one process.
func NewRegistry(src Source, log *slog.Logger) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		NewPoolCollector(src),
		NewStatsCollector(src, log),
	)
	if ls, ok := src.(LinkSource); ok {
		reg.MustRegister(NewLinksCollector(ls, log))
	}
	return reg
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

// poolCollector exposes the pgxpool statistics of the write and read pools.
// It reads counters the pools keep in memory: no I/O.
type poolCollector struct{ src Source }

// NewPoolCollector returns the collector of okf_db_pool_* {pool}.
func NewPoolCollector(src Source) prometheus.Collector { return poolCollector{src} }

var poolDescs = struct {
	acquired, idle, constructing, total, max, acquires, canceled, empty,
	acquireSecs, emptyWaitSecs, newConns, lifetimeDestroys, idleDestroys *prometheus.Desc
}{
	acquired:         desc("okf_db_pool_acquired_conns", "Connections in use.", "pool"),
	idle:             desc("okf_db_pool_idle_conns", "Idle connections.", "pool"),
	constructing:     desc("okf_db_pool_constructing_conns", "Connections being opened.", "pool"),
	total:            desc("okf_db_pool_total_conns", "Open connections (acquired, idle and constructing).", "pool"),
	max:              desc("okf_db_pool_max_conns", "Pool size limit.", "pool"),
	acquires:         desc("okf_db_pool_acquires_total", "Successful connection acquires.", "pool"),
	canceled:         desc("okf_db_pool_canceled_acquires_total", "Acquires abandoned by their context.", "pool"),
	empty:            desc("okf_db_pool_empty_acquires_total", "Acquires that waited because no connection was idle.", "pool"),
	acquireSecs:      desc("okf_db_pool_acquire_seconds_total", "Time spent acquiring connections.", "pool"),
	emptyWaitSecs:    desc("okf_db_pool_empty_acquire_wait_seconds_total", "Time spent waiting for a connection when none was idle.", "pool"),
	newConns:         desc("okf_db_pool_new_conns_total", "Connections opened.", "pool"),
	lifetimeDestroys: desc("okf_db_pool_max_lifetime_destroys_total", "Connections closed at their maximum lifetime.", "pool"),
	idleDestroys:     desc("okf_db_pool_max_idle_destroys_total", "Connections closed after idling too long.", "pool"),
}

func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	d := poolDescs
	for _, x := range []*prometheus.Desc{d.acquired, d.idle, d.constructing, d.total, d.max, d.acquires,
		d.canceled, d.empty, d.acquireSecs, d.emptyWaitSecs, d.newConns, d.lifetimeDestroys, d.idleDestroys} {
		ch <- x
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	d := poolDescs
	for _, p := range c.src.PoolStats() {
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, p.Name)
		}
		counter := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, p.Name)
		}
		gauge(d.acquired, float64(p.AcquiredConns))
		gauge(d.idle, float64(p.IdleConns))
		gauge(d.constructing, float64(p.ConstructingConns))
		gauge(d.total, float64(p.TotalConns))
		gauge(d.max, float64(p.MaxConns))
		counter(d.acquires, float64(p.AcquireCount))
		counter(d.canceled, float64(p.CanceledAcquireCount))
		counter(d.empty, float64(p.EmptyAcquireCount))
		counter(d.acquireSecs, p.AcquireDuration.Seconds())
		counter(d.emptyWaitSecs, p.EmptyAcquireWaitTime.Seconds())
		counter(d.newConns, float64(p.NewConnsCount))
		counter(d.lifetimeDestroys, float64(p.MaxLifetimeDestroyCount))
		counter(d.idleDestroys, float64(p.MaxIdleDestroyCount))
	}
}

// statsCollector reads the queue's, the sweep's and the pings' counts from
// Postgres on each scrape (store.OpsStats), bounded by StatsTimeout. When
// the read fails it reports okf_db_stats_up 0 and no stale numbers.
type statsCollector struct {
	src Source
	log *slog.Logger
}

// NewStatsCollector returns the collector of okf_river_jobs, okf_sweep_*,
// okf_pings, okf_pings_pending and okf_db_stats_up.
func NewStatsCollector(src Source, log *slog.Logger) prometheus.Collector {
	if log == nil {
		log = slog.Default()
	}
	return statsCollector{src, log}
}

var statsDescs = struct {
	up, jobs, round, candidates, windows, pings, pending *prometheus.Desc
}{
	up:         desc("okf_db_stats_up", "1 when the last scrape read the database counts, else 0."),
	jobs:       desc("okf_river_jobs", "River jobs in the database by kind and state.", "kind", "state"),
	round:      desc("okf_sweep_round_start_timestamp_seconds", "Start of the newest GitHub sweep discovery round."),
	candidates: desc("okf_sweep_candidates", "Sweep candidate repositories: swept in the newest round (done), not yet (pending), gone.", "state"),
	windows:    desc("okf_sweep_windows", "Search slices of the newest discovery round by discoverer: finished (done) or still paging (open).", "discoverer", "state"),
	pings:      desc("okf_pings", "IndexNow URLs submitted in the last 24 hours, by estado (pendente, publicado, rejeitado).", "estado"),
	pending:    desc("okf_pings_pending", "IndexNow URLs still waiting for their key check, however old."),
}

func (statsCollector) Describe(ch chan<- *prometheus.Desc) {
	d := statsDescs
	for _, x := range []*prometheus.Desc{d.up, d.jobs, d.round, d.candidates, d.windows, d.pings, d.pending} {
		ch <- x
	}
}

func (c statsCollector) Collect(ch chan<- prometheus.Metric) {
	d := statsDescs
	ctx, cancel := context.WithTimeout(context.Background(), StatsTimeout)
	defer cancel()
	st, err := c.src.OpsStats(ctx)
	if err != nil {
		c.log.Warn("metrics: database counts", "error", err.Error())
		ch <- prometheus.MustNewConstMetric(d.up, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(d.up, prometheus.GaugeValue, 1)
	gauge := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), labels...)
	}

	// Every state of a kind present is reported, zeros included, so a
	// queue that drains shows 0 instead of a series that vanishes.
	byKind := map[string]map[string]int64{}
	for _, j := range st.Jobs {
		if byKind[j.Kind] == nil {
			byKind[j.Kind] = map[string]int64{}
		}
		byKind[j.Kind][j.State] += j.N
	}
	for kind, states := range byKind {
		for _, s := range rivertype.JobStates() {
			gauge(d.jobs, states[string(s)], kind, string(s))
		}
	}

	if t, err := time.Parse(time.RFC3339, st.SweepRound); err == nil {
		ch <- prometheus.MustNewConstMetric(d.round, prometheus.GaugeValue, float64(t.Unix()))
	}
	gauge(d.candidates, st.CandidatesDone, "done")
	gauge(d.candidates, st.CandidatesPending, "pending")
	gauge(d.candidates, st.CandidatesGone, "gone")
	for _, by := range []string{store.DiscoveredByRepoSearch, store.DiscoveredByCodeSearch} {
		gauge(d.windows, st.WindowsDone[by], by, "done")
		gauge(d.windows, st.WindowsOpen[by], by, "open")
	}
	for _, e := range []wire.PingState{wire.PingPending, wire.PingPublished, wire.PingRejected} {
		gauge(d.pings, st.Pings[e], string(e))
	}
	gauge(d.pending, st.PingsPending)
}
