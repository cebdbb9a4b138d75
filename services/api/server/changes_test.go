package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/search"
)

// followChanges reads GET /api/changes from since ("" for the start) to its
// end, following next_url, applies each event to set and returns the
// events and the last next.
func (a *testAPI) followChanges(since string, limit int, set map[string]bool) ([]wire.Change, string) {
	a.t.Helper()
	path := fmt.Sprintf("/api/changes?limit=%d", limit)
	if since != "" {
		path += "&since=" + url.QueryEscape(since)
	}
	var all []wire.Change
	for {
		var page wire.ChangePage
		a.get(path, http.StatusOK, &page)
		if page.Limit != limit || len(page.Items) > limit || !strings.HasPrefix(page.NextURL, publicBase+"/api/changes?since=") {
			a.t.Fatalf("GET %s: page %+v", path, page)
		}
		for _, c := range page.Items {
			switch c.Event {
			case wire.ChangeAdded, wire.ChangeUpdated:
				if c.API == nil || *c.API != publicBase+"/api/bundles/"+c.ID || c.Tombstone != nil {
					a.t.Errorf("%+v: an added or updated event links its card and has no tombstone", c)
				}
				set[c.ID] = true
			case wire.ChangeRemoved:
				if c.API != nil || c.Tombstone == nil || c.Tombstone.Reason == "" {
					a.t.Errorf("%+v: a removed event has a tombstone with a reason and no card", c)
				}
				delete(set, c.ID)
			default:
				a.t.Errorf("unknown event %+v", c)
			}
		}
		all = append(all, page.Items...)
		if !page.More {
			return all, page.Next
		}
		path = page.NextURL
	}
}

// searchedSet is every live bundle, as search pages through them.
func (a *testAPI) searchedSet() map[string]bool {
	a.t.Helper()
	out := map[string]bool{}
	path := "/api/bundles?limit=100"
	for path != "" {
		var page wire.Page
		a.get(path, http.StatusOK, &page)
		for _, c := range page.Items {
			out[c.ID] = true
		}
		path = ""
		if page.Next != nil {
			path = *page.Next
		}
	}
	return out
}

func sameChangeSet(t *testing.T, got, want map[string]bool, when string) {
	t.Helper()
	for id := range want {
		if !got[id] {
			t.Errorf("%s: %s is searched but missing from the feed's set", when, id)
		}
	}
	for id := range got {
		if !want[id] {
			t.Errorf("%s: the feed's set holds %s, which search does not return", when, id)
		}
	}
}

// A client of GET /api/changes, over HTTP, holds what search returns after
// additions, a content change, removals of every kind and re-additions; a
// second client started later from the beginning holds the same.
func TestChangesFeedReplaysToSearch(t *testing.T) {
	for _, variant := range []string{"base", "full"} {
		t.Run(variant, func(t *testing.T) {
			a := newAPI(t, variant)
			st := a.store
			ctx := t.Context()
			card := func(name string) wire.Card {
				return wire.Card{Name: name, Description: "About " + name, OKFVersion: "0.1"}
			}
			kb := repoBundle("acme", "kb", "index.md", card("Acme KB"), signal(5, "Go", "MIT"))
			docs := repoBundle("acme", "kb", "docs/index.md", card("Acme docs"), signal(5, "Go", "MIT"))
			other := repoBundle("zeta", "notes", "index.md", card("Zeta notes"), signal(1, "", ""))
			ex := repoBundle("acme", "kb", "examples/a/index.md", card("Example"), signal(5, "Go", "MIT"))
			site := siteBundle("https://docs.example.org/okf/index.md", card("Site docs"))
			dup := repoBundle("copy", "kb", "index.md", card("Acme KB"), signal(0, "", ""))
			dup.RootSHA256 = kb.RootSHA256
			upsert(t, st, kb, docs, other, ex, site)

			set := map[string]bool{}
			_, next := a.followChanges("", 2, set)
			sameChangeSet(t, set, a.searchedSet(), "after additions")

			changed := kb
			changed.Tagline = "now with a tagline"
			upsert(t, st, changed, dup) // updated; the copy is low: no event
			if _, err := st.HideRepoBundlesExcept(ctx, "acme/kb", []string{kb.ID, ex.ID}); err != nil {
				t.Fatal(err)
			}
			if _, err := st.HideGoneRepo(ctx, "zeta/notes"); err != nil {
				t.Fatal(err)
			}
			if err := st.HideBundle(ctx, site.ID); err != nil {
				t.Fatal(err)
			}
			events, next := a.followChanges(next, 3, set)
			sameChangeSet(t, set, a.searchedSet(), "after removals")
			got := map[string]string{}
			for _, c := range events {
				got[c.ID] = string(c.Event)
				if c.Tombstone != nil {
					got[c.ID] += " " + string(c.Tombstone.Reason)
				}
			}
			want := map[string]string{kb.ID: "updated", docs.ID: "removed file_gone",
				other.ID: "removed repo_gone", site.ID: "removed key_mismatch"}
			for id, w := range want {
				if got[id] != w {
					t.Errorf("%s: %q, want %q", id, got[id], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("events %v, want %v", got, want)
			}

			upsert(t, st, docs, other, site) // re-additions
			if _, err := st.HideRepoBundlesExcept(ctx, "acme/kb", []string{docs.ID, ex.ID}); err != nil {
				t.Fatal(err) // kb leaves: its copy becomes live
			}
			a.followChanges(next, 100, set)
			sameChangeSet(t, set, a.searchedSet(), "after re-additions")
			if !set[dup.ID] {
				t.Errorf("the promoted copy %s is not in the set", dup.ID)
			}

			fresh := map[string]bool{}
			a.followChanges("", 1, fresh)
			sameChangeSet(t, fresh, a.searchedSet(), "replayed from the start")
		})
	}
}

// Refused cursors and limits: 400 invalid_parameter naming the field; a
// limit above 100 counts as 100; an expired cursor is 410 cursor_expired.
func TestChangesRefusals(t *testing.T) {
	a := newAPI(t, "base")
	st := a.store
	var ins []store.BundleInput
	for i := range 4 {
		ins = append(ins, repoBundle("acme", fmt.Sprint("kb", i), "index.md",
			wire.Card{Name: fmt.Sprint("KB ", i), OKFVersion: "0.1"}, signal(1, "", "")))
	}
	upsert(t, st, ins...)
	valid := search.EncodeChangeCursor(store.ChangeCursor{Pos: 2})
	tests := []struct {
		query, field string
	}{
		{"since=nonsense", "since"},
		{"since=c1.AAAAAAAAAAAAAAAAAAAAAA%3D%3D", "since"},
		{"since=c2." + valid[3:], "since"},
		{"since=" + strings.ToUpper(valid), "since"},
		{"since=" + valid + "&since=" + valid, "since"},
		{"since=" + valid[:len(valid)-1] + "B", "since"}, // bits past the 16 bytes
		{"since=" + search.EncodeChangeCursor(store.ChangeCursor{Pos: 999}), "since"},
		{"since=" + search.EncodeChangeCursor(store.ChangeCursor{Pos: 1, Horizon: 7}), "since"},
		{"since=" + strings.Repeat("a", 65), "since"},
		{"limit=0", "limit"},
		{"limit=-1", "limit"},
		{"limit=1.5", "limit"},
		{"limit=ten", "limit"},
		{"since=%zz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			e := a.getError("/api/changes?"+tt.query, http.StatusBadRequest, apierror.InvalidParameter)
			if e.Field != tt.field {
				t.Errorf("field %q, want %q", e.Field, tt.field)
			}
		})
	}
	var page wire.ChangePage
	a.get("/api/changes?limit=500&since="+valid, http.StatusOK, &page)
	if page.Limit != 100 || len(page.Items) != 2 || page.More {
		t.Errorf("limit=500: %+v, want limit 100 and the last two events", page)
	}
	a.get("/api/changes?since=", http.StatusOK, &page) // empty: from the start
	if len(page.Items) != 4 || page.Limit != 100 {     // the default limit is the maximum
		t.Errorf("since empty: %+v", page)
	}

	// Tombstones dropped: a cursor given before them has expired.
	old := page.Next
	if _, err := st.HideGoneRepo(t.Context(), "acme/kb0"); err != nil {
		t.Fatal(err)
	}
	var cur wire.ChangePage
	a.get("/api/changes?since="+search.EncodeChangeCursor(store.ChangeCursor{Pos: 3}), http.StatusOK, &cur)
	if _, err := st.CompactChanges(t.Context(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.getError("/api/changes?since="+search.EncodeChangeCursor(store.ChangeCursor{Pos: 3}), http.StatusGone, apierror.CursorExpired)
	a.getError("/api/changes?since="+old, http.StatusGone, apierror.CursorExpired)
	fresh := map[string]bool{}
	a.followChanges("", 2, fresh)
	sameChangeSet(t, fresh, a.searchedSet(), "after compaction, from the start")
}
