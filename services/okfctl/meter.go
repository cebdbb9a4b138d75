package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// meter shows an import's progress: on a terminal one line rewritten in
// place (count, rate, ETA), elsewhere a line every meterEvery roots. Its
// methods may be called at once (the parser counts, the writers print).
type meter struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	total    int
	n, shown int
	start    time.Time
	clock    func() time.Time
}

// meterEvery is how many roots a line stands for when progress is not a
// terminal.
const meterEvery = 5000

func newMeter(w io.Writer, total int) *meter {
	m := &meter{w: w, total: total, start: time.Now(), clock: time.Now}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			m.terminal = true
		}
	}
	return m
}

// add counts n roots read.
func (m *meter) add(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n += n
	switch {
	case m.terminal && (m.n-m.shown >= 100 || m.n == m.total):
		fmt.Fprintf(m.w, "\r%s", m.line())
		m.shown = m.n
	case !m.terminal && m.n-m.shown >= meterEvery:
		fmt.Fprintln(m.w, m.line())
		m.shown = m.n
	}
}

// printf writes a message on a line of its own.
func (m *meter) printf(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.terminal && m.shown > 0 {
		fmt.Fprint(m.w, "\r\033[K")
	}
	fmt.Fprintf(m.w, format, args...)
}

// done ends the progress with the final count.
func (m *meter) done() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.terminal {
		fmt.Fprintf(m.w, "\r%s\n", m.line())
	} else if m.n != m.shown {
		fmt.Fprintln(m.w, m.line())
	}
}

func (m *meter) line() string {
	elapsed := m.clock().Sub(m.start).Seconds()
	rate := float64(m.n) / max(elapsed, 1e-3)
	eta := "-"
	if rate > 0 && m.total > m.n {
		eta = (time.Duration(float64(m.total-m.n)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("%d/%d index.md read, %.0f/s, ETA %s", m.n, m.total, rate, eta)
}
