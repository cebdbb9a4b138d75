package ttlcache_test

import (
	"context"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/ttlcache"
)

// A value read once a minute however many requests ask for it.
func Example() {
	totals := ttlcache.New[int](time.Minute, nil)
	reads := 0
	read := func(context.Context) (int, error) { reads++; return 42, nil }
	for range 3 {
		n, err := totals.Get(context.Background(), read)
		fmt.Println(n, err)
	}
	fmt.Println("reads:", reads)
	// Output:
	// 42 <nil>
	// 42 <nil>
	// 42 <nil>
	// reads: 1
}
