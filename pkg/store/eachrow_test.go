package store

import (
	"sync/atomic"
	"testing"
)

func TestEachRowCallsEveryRowOnce(t *testing.T) {
	for _, n := range []int{0, 1, rowsPerWorker - 1, rowsPerWorker * 2, 1000} {
		calls := make([]atomic.Int32, n)
		eachRow(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: row %d called %d times", n, i, c)
			}
		}
	}
}
