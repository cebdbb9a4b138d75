package ops

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/store"
)

// LinkSource is what the link collector reads: *store.Store. A Source that
// is also a LinkSource gets the collector in NewRegistry.
type LinkSource interface {
	LinkTotals(context.Context) (store.LinkTotals, error)
}

// linksCollector exposes the index-wide share of concept links that point
// at files missing from their repository. The hourly recount_stats job
// counts them (store.RecountLinks); a scrape reads that one row.
type linksCollector struct {
	src LinkSource
	log *slog.Logger
}

// NewLinksCollector returns the collector of okf_concept_links{state},
// okf_concept_links_missing_ratio, okf_concept_links_bundles and
// okf_concept_links_counted_timestamp_seconds.
func NewLinksCollector(src LinkSource, log *slog.Logger) prometheus.Collector {
	if log == nil {
		log = slog.Default()
	}
	return linksCollector{src, log}
}

var linkDescs = struct {
	links, ratio, bundles, counted *prometheus.Desc
}{
	links: desc("okf_concept_links", "Concept links of non-hidden repository bundles that stay inside their repository (total), "+
		"and those pointing at a file the repository lacks (missing), at the last recount.", "state"),
	ratio:   desc("okf_concept_links_missing_ratio", "Share of those concept links that point at missing files, at the last recount."),
	bundles: desc("okf_concept_links_bundles", "Non-hidden repository bundles whose links the sweep checked, at the last recount."),
	counted: desc("okf_concept_links_counted_timestamp_seconds", "When the concept links were last recounted (the recount_stats job)."),
}

func (linksCollector) Describe(ch chan<- *prometheus.Desc) {
	d := linkDescs
	for _, x := range []*prometheus.Desc{d.links, d.ratio, d.bundles, d.counted} {
		ch <- x
	}
}

func (c linksCollector) Collect(ch chan<- prometheus.Metric) {
	d := linkDescs
	ctx, cancel := context.WithTimeout(context.Background(), StatsTimeout)
	defer cancel()
	t, err := c.src.LinkTotals(ctx)
	if err != nil {
		// okf_db_stats_up already says the database did not answer.
		c.log.Warn("metrics: concept link totals", "error", err.Error())
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(d.links, float64(t.Total), "total")
	gauge(d.links, float64(t.Missing), "missing")
	ratio := 0.0
	if t.Total > 0 {
		ratio = float64(t.Missing) / float64(t.Total)
	}
	gauge(d.ratio, ratio)
	gauge(d.bundles, float64(t.Bundles))
	if t.CountedAt != nil {
		gauge(d.counted, float64(t.CountedAt.Unix()))
	}
}
