package pagecache_test

import (
	"context"
	"fmt"
	"strconv"

	"github.com/okfindex/okf-index/pkg/pagecache"
)

// A cache of pages that holds while no bundle is written (the default
// policy: any write empties it; ByKey and StaleFor are the others). In the service
// the check is store.BundlesWritten; here a counter stands for the
// database's write log.
func Example() {
	writes := 0
	check := func(_ context.Context, since string) (string, bool, []string, error) {
		now := strconv.Itoa(writes)
		if since != "" && since != now {
			return now, false, []string{"bundle-1"}, nil // what the write wrote
		}
		return now, since == "", nil, nil
	}
	pages := pagecache.New[string](pagecache.NewTracker(check, nil), 1<<20)
	computed := 0
	page := func() (string, int, error) {
		computed++
		return "page of results " + strconv.Itoa(computed), 20, nil
	}
	ctx := context.Background()
	for _, step := range []string{"first", "again", "after a write"} {
		if step == "after a write" {
			writes++
		}
		p, _ := pages.Load(ctx, "q=guide", page)
		fmt.Println(step+":", p)
	}
	// Output:
	// first: page of results 1
	// again: page of results 1
	// after a write: page of results 2
}
