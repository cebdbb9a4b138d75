package clientreport

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Defaults applied by New to zero Options fields.
const (
	DefaultWindow     = time.Minute
	DefaultMaxPending = 1000
)

// Options configures a Reporter. Zero fields take the defaults.
type Options struct {
	Window     time.Duration    // merge window; 0 means DefaultWindow (the contract's minute)
	MaxPending int              // distinct failures held per window; 0 means DefaultMaxPending
	Now        func() time.Time // clock; nil means time.Now. Tests set it to drive windows
}

// Outcome says what Report did with a report, for tests and metrics. The
// HTTP answer is 204 whatever it is.
type Outcome int

// Outcomes of Report.
const (
	Invalid  Outcome = iota // not a valid report; nothing kept
	Accepted                // first of its failure in this window; logged when the window closes
	Merged                  // repeat of a failure already waiting; its count grew
	Dropped                 // valid, but the window already holds MaxPending distinct failures
)

// String returns the outcome as a metric label: "invalid", "accepted",
// "merged" or "dropped".
func (o Outcome) String() string {
	switch o {
	case Accepted:
		return "accepted"
	case Merged:
		return "merged"
	case Dropped:
		return "dropped"
	}
	return "invalid"
}

// Reporter turns client failure reports into merged log events. It is safe
// for concurrent use; build one per process and share it.
type Reporter struct {
	log        *slog.Logger
	window     time.Duration
	maxPending int
	now        func() time.Time

	mu          sync.Mutex
	windowStart time.Time               // start of the open window
	pending     map[failureKey]*pending // failures waiting in the open window
	order       []*pending              // the same, in arrival order, so events are emitted in it
	dropped     droppedCount            // distinct failures refused in the open window
}

// pending is one failure waiting for its window to close.
type pending struct {
	failure
	family      string
	count       int
	first, last time.Time
}

type droppedCount struct {
	count       int
	first, last time.Time
}

// batch is what a closed window leaves to emit.
type batch struct {
	events  []*pending
	dropped droppedCount
}

// New returns a Reporter that logs to log (slog.Default() when nil).
func New(log *slog.Logger, opts Options) *Reporter {
	if log == nil {
		log = slog.Default()
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Reporter{log: log, window: opts.Window, maxPending: opts.MaxPending, now: opts.Now}
}

// Report validates one report body and merges it into the open window.
// userAgent is only reduced to a family. Report never panics and never
// blocks on anything but the Reporter's own lock and, when its arrival
// closes a window, the logger.
func (r *Reporter) Report(body []byte, userAgent string) Outcome {
	f, err := parseFailure(body)
	if err != nil {
		return Invalid
	}
	family := uaFamily(userAgent)
	now := r.now().UTC()

	r.mu.Lock()
	closed := r.rollLocked(now)
	out := r.addLocked(f, family, now)
	r.mu.Unlock()

	r.emit(closed) // outside the lock: a slow log sink must not stall other reports
	return out
}

// Flush emits every pending event now, whether or not its window is over;
// a repeat reported later in the same window starts a new event. For
// shutdown and tests.
func (r *Reporter) Flush() {
	r.mu.Lock()
	b := r.takeLocked()
	r.mu.Unlock()
	r.emit(b)
}

// Run closes each window when it ends, until ctx is done; then it flushes
// what is pending and returns. Start it once, in its own goroutine.
func (r *Reporter) Run(ctx context.Context) {
	for {
		now := r.now()
		// Until the end of the current window: always in (0, window].
		t := time.NewTimer(now.Truncate(r.window).Add(r.window).Sub(now))
		select {
		case <-ctx.Done():
			t.Stop()
			r.Flush()
			return
		case <-t.C:
			r.mu.Lock()
			b := r.rollLocked(r.now().UTC())
			r.mu.Unlock()
			r.emit(b)
		}
	}
}

// rollLocked moves to the window holding now. When that is a new window it
// returns what the old one holds.
func (r *Reporter) rollLocked(now time.Time) batch {
	start := now.Truncate(r.window)
	if start.Equal(r.windowStart) {
		return batch{}
	}
	r.windowStart = start
	return r.takeLocked()
}

func (r *Reporter) takeLocked() batch {
	b := batch{events: r.order, dropped: r.dropped}
	r.pending, r.order, r.dropped = nil, nil, droppedCount{}
	return b
}

func (r *Reporter) addLocked(f failure, family string, now time.Time) Outcome {
	k := f.key()
	if p, ok := r.pending[k]; ok {
		p.count++
		p.last = now
		p.visivel = p.visivel || f.visivel
		if p.family != family {
			p.family = FamilyMixed
		}
		return Merged
	}
	if len(r.order) >= r.maxPending {
		if r.dropped.count == 0 {
			r.dropped.first = now
		}
		r.dropped.count++
		r.dropped.last = now
		return Dropped
	}
	if r.pending == nil {
		r.pending = make(map[failureKey]*pending)
	}
	p := &pending{failure: f, family: family, count: 1, first: now, last: now}
	r.pending[k] = p
	r.order = append(r.order, p)
	return Accepted
}
