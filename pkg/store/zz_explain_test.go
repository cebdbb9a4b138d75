package store_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestExplainX(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{URL: os.Getenv("X_URL")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, q := range []string{os.Getenv("X_Q")} {
		sort := wire.Sort(os.Getenv("X_SORT"))
		plan, err := store.ExplainSearch(ctx, s, store.SearchParams{Q: q, Sort: sort, Limit: 25})
		fmt.Println(plan, err)
	}
}
