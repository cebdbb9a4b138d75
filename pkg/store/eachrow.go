package store

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// rowsPerWorker is the fewest rows eachRow gives a goroutine of its own: a
// single bundle's write stays on its caller's goroutine.
const rowsPerWorker = 32

// eachRow calls f(i) for every i in [0, n), on up to GOMAXPROCS goroutines
// when n is large enough. A batch's rows are prepared independently (the
// JSON and hash of each, its language and words), and a writer of one
// batch at a time would otherwise keep one core busy while the database
// waits for it. f must only touch what belongs to row i.
func eachRow(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/rowsPerWorker)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}
