package main

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// histogram counts latencies in log-linear buckets, HDR style: exact below
// 128 µs, then 64 buckets for each power of two, so a reported quantile is
// within 1/64 (1.6%) of the true one. Its memory is fixed whatever the
// number of samples; Record is safe for concurrent use.
type histogram struct {
	counts [histBuckets]atomic.Uint64
	total  atomic.Uint64
	max    atomic.Int64 // µs
}

const (
	histSub     = 64                              // buckets per power of two
	histLinear  = 2 * histSub                     // values below this have a bucket each
	histMaxExp  = 30                              // 2^36 µs, ~19 hours: anything longer lands in the last bucket
	histBuckets = histLinear + histMaxExp*histSub // 2048
)

// bucketOf is the bucket of a value in µs.
func bucketOf(us int64) int {
	if us < histLinear {
		return int(max(us, 0))
	}
	e := bits.Len64(uint64(us)) - 7 // us >> e is in [64, 128)
	if e > histMaxExp {
		return histBuckets - 1
	}
	return histLinear + (e-1)*histSub + int(us>>e) - histSub
}

// bucketHigh is the largest value of bucket i, in µs: quantiles report it,
// so they never understate.
func bucketHigh(i int) int64 {
	if i < histLinear {
		return int64(i)
	}
	e := (i-histLinear)/histSub + 1
	m := int64((i-histLinear)%histSub + histSub)
	return (m+1)<<e - 1
}

// Record counts one latency.
func (h *histogram) Record(d time.Duration) {
	us := d.Microseconds()
	h.counts[bucketOf(us)].Add(1)
	h.total.Add(1)
	for {
		old := h.max.Load()
		if us <= old || h.max.CompareAndSwap(old, us) {
			return
		}
	}
}

// Count is the number of latencies recorded.
func (h *histogram) Count() uint64 { return h.total.Load() }

// Max is the largest latency recorded.
func (h *histogram) Max() time.Duration { return time.Duration(h.max.Load()) * time.Microsecond }

// Quantile is the latency that q (0..1) of the recorded ones do not
// exceed: the upper end of its bucket, never above Max. 0 when empty.
func (h *histogram) Quantile(q float64) time.Duration {
	n := h.total.Load()
	if n == 0 {
		return 0
	}
	rank := uint64(q*float64(n) + 0.999999) // ceil, at least 1
	rank = min(max(rank, 1), n)
	var seen uint64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			return min(time.Duration(bucketHigh(i))*time.Microsecond, h.Max())
		}
	}
	return h.Max()
}

// merge adds o's counts to h.
func (h *histogram) merge(o *histogram) {
	for i := range o.counts {
		if c := o.counts[i].Load(); c > 0 {
			h.counts[i].Add(c)
		}
	}
	h.total.Add(o.total.Load())
	if m := o.max.Load(); m > h.max.Load() {
		h.max.Store(m)
	}
}
