package githubtest

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/shurcooL/githubv4"
)

func TestSyntheticCorpus(t *testing.T) {
	s := New(t, Options{})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	names := s.AddSyntheticRepos(10000, 42)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("10,000 synthetic repositories: %.1f MB heap", float64(heap)/(1<<20))
	if heap > 100<<20 {
		t.Fatalf("synthetic corpus uses %d MB", heap>>20)
	}
	if again := New(t, Options{}).AddSyntheticRepos(3, 42); again[2] != names[2] {
		t.Fatal("not deterministic")
	}
	// A batched read of 50 aliased repositories costs one point.
	var b strings.Builder
	b.WriteString("{ rateLimit { cost } ")
	for i, n := range names[:50] {
		own, name, _ := strings.Cut(n, "/")
		fmt.Fprintf(&b, "r%d: repository(owner: %q, name: %q) { object(expression: \"HEAD:\") { ... on Tree { entries { name type } } } } ", i, own, name)
	}
	b.WriteString("}")
	out, _ := post(t, s, b.String(), nil)
	if len(out.Errors) > 0 || string(out.Data["rateLimit"]) != `{"cost":1}` {
		t.Fatalf("rateLimit %s errors %+v", out.Data["rateLimit"], out.Errors)
	}
	// Discovery via topic works through githubv4 too.
	names2, n := searchAll(t, v4client(s), "topic:okf created:2025-01-01..2025-03-31")
	if n == 0 || n != len(names2) {
		t.Fatalf("topic window: %d / %d", n, len(names2))
	}
	var q struct {
		Repository struct{ NameWithOwner string } `graphql:"repository(owner: $o, name: $n)"`
	}
	own, name, _ := strings.Cut(names2[0], "/")
	if err := v4client(s).Query(context.Background(), &q, map[string]any{"o": githubv4.String(own), "n": githubv4.String(name)}); err != nil || q.Repository.NameWithOwner != names2[0] {
		t.Fatalf("%v %+v", err, q)
	}
}
