package worker_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// followFeed reads the change feed after cur to its end, applies it to set
// (added and updated: in; removed: out) and returns the events and the
// cursor that follows.
func (h *harness) followFeed(ctx context.Context, cur store.ChangeCursor, set map[string]bool) ([]store.Change, store.ChangeCursor) {
	h.t.Helper()
	var out []store.Change
	for {
		page, err := h.st.Changes(ctx, cur, 7)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, c := range page.Changes {
			if c.Kind == wire.ChangeRemoved {
				delete(set, c.BundleID)
			} else {
				set[c.BundleID] = true
			}
		}
		out, cur = append(out, page.Changes...), page.Next
		if !page.More {
			return out, cur
		}
	}
}

// checkLiveSet compares a replayed set with the live bundles.
func (h *harness) checkLiveSet(ctx context.Context, set map[string]bool, when string) {
	h.t.Helper()
	live := 0
	for id, b := range h.bundles(ctx) {
		if b.Visibility == wire.VisibilityLive {
			live++
			if !set[id] {
				h.t.Errorf("%s: live bundle %s missing from the replayed feed", when, id)
			}
		} else if set[id] {
			h.t.Errorf("%s: the replayed feed holds %s, which is %s", when, id, b.Visibility)
		}
	}
	if live != len(set) {
		h.t.Errorf("%s: %d live bundles, the feed holds %d", when, live, len(set))
	}
}

// The change feed over real sweeps of the corpus: a client that follows it
// from the start holds the live set after the first sweep, after a sweep
// that changes a root, removes a file and a whole repository, and after
// one that brings both back; each step's events carry the right kinds and
// reasons.
func TestSweepChangeFeed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	h := newHarness(t)
	client := h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries, CodeQueries: worker.DefaultSweepCodeQueries})
	h.firstRound(ctx)
	set := map[string]bool{}
	first, cur := h.followFeed(ctx, store.ChangeCursor{}, set)
	h.checkLiveSet(ctx, set, "after the first sweep")
	// Only added, but for a copy written in the same batch as an earlier
	// copy of its root: added, then made low by the duplicate rule in the
	// same transaction.
	for _, c := range first {
		if c.Kind == wire.ChangeUpdated || (c.Kind == wire.ChangeRemoved && c.Reason != wire.RemovedMadeLow) {
			t.Errorf("first sweep: %+v, want added (or made_low for a duplicate)", c)
		}
	}

	changed := h.find(t, "eloybar", "okf-skills")
	file := h.find(t, "copperbox", "okf-mcp")
	gone := h.find(t, "claudiobottari", "databricks-okf")
	repoChanged, _ := h.gh.Repo(changed.Owner, changed.Name)
	repoFile, _ := h.gh.Repo(file.Owner, file.Name)
	repoGone, _ := h.gh.Repo(gone.Owner, gone.Name)
	original := repoChanged.Files[changed.Path]
	if !h.gh.SetFile(changed.Owner, changed.Name, changed.Path, append(append([]byte{}, original...), "\n\nA paragraph added by the test.\n"...)) {
		t.Fatal("set file")
	}
	if !h.gh.RemoveFile(file.Owner, file.Name, file.Path) {
		t.Fatal("remove file")
	}
	h.gh.RemoveRepo(gone.Owner, gone.Name)
	h.round(ctx, client)
	second, cur := h.followFeed(ctx, cur, set)
	h.checkLiveSet(ctx, set, "after changes and removals")
	want := map[string]string{
		changed.id(): "updated",
		file.id():    "removed file_gone",
		gone.id():    "removed repo_gone",
	}
	got := map[string]string{}
	for _, c := range second {
		s := string(c.Kind)
		if c.Reason != "" {
			s += " " + string(c.Reason)
		}
		got[c.BundleID] = s
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("second sweep: %s is %q, want %q (events %v)", id, got[id], w, second)
		}
	}

	// Bring the file and the repository back.
	h.gh.SetFile(file.Owner, file.Name, file.Path, repoFile.Files[file.Path])
	h.gh.AddRepo(repoGone)
	h.round(ctx, client)
	third, _ := h.followFeed(ctx, cur, set)
	h.checkLiveSet(ctx, set, "after re-additions")
	added := map[string]bool{}
	for _, c := range third {
		if c.Kind == wire.ChangeAdded {
			added[c.BundleID] = true
		}
	}
	if !added[file.id()] || !added[gone.id()] {
		t.Errorf("third sweep: re-added %v, want %s and %s", added, file.id(), gone.id())
	}

	// A new client, from the start, holds the same set.
	fresh := map[string]bool{}
	h.followFeed(ctx, store.ChangeCursor{}, fresh)
	h.checkLiveSet(ctx, fresh, "replayed from the start")
	t.Logf("events: first sweep %d, second %d, third %d", len(first), len(second), len(third))
}

// The compact_changes job drops superseded events at once and tombstones
// older than the retention, moving the horizon: an old cursor is then
// expired, and the feed from the start still gives the live set.
func TestCompactChangesJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := storetest.NewStore(t)
	var ins []store.BundleInput
	for i := range 3 {
		in, err := indexer.FromRepo([]byte(fmt.Sprintf("---\nokf_version: \"0.2\"\ntitle: T%d\n---\n", i)),
			source.Repo{Owner: "o", Name: fmt.Sprint("r", i), Path: "index.md"}, indexer.RepoInfo{}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	if _, err := st.UpsertBundles(ctx, ins); err != nil {
		t.Fatal(err)
	}
	if _, err := st.HideGoneRepo(ctx, "o/r0"); err != nil {
		t.Fatal(err)
	}
	old := store.ChangeCursor{Pos: 1}
	if _, err := st.Changes(ctx, old, 10); err != nil { // places the events
		t.Fatal(err)
	}
	// The worker's clock is past the retention: the tombstone goes too.
	later := func() time.Time { return time.Now().Add(jobs.ChangesRetention + time.Hour) }
	client, done := startClient(t, ctx, worker.Options{Store: st, Now: later})
	if _, err := client.Insert(ctx, jobs.CompactChangesArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case ev := <-done:
			if ev.Job.Kind != (jobs.CompactChangesArgs{}).Kind() {
				continue // the recount run on start
			}
			if ev.Kind != river.EventKindJobCompleted {
				t.Fatalf("compact_changes: %s %v", ev.Kind, ev.Job.Errors)
			}
		case <-ctx.Done():
			t.Fatal("compact_changes never completed")
		}
		break
	}
	if _, err := st.Changes(ctx, old, 10); !errors.Is(err, store.ErrCursorExpired) {
		t.Errorf("a cursor from before the compaction: %v, want ErrCursorExpired", err)
	}
	page, err := st.Changes(ctx, store.ChangeCursor{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range page.Changes {
		got = append(got, string(c.Kind)+" "+c.BundleID)
	}
	want := []string{"added " + ins[1].ID, "added " + ins[2].ID}
	if !slices.Equal(got, want) {
		t.Errorf("feed after compaction %v, want %v", got, want)
	}
}
