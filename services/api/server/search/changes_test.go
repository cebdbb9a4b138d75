package search

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Cursors read back exactly what was written, and nothing else.
func TestChangeCursorRoundTrip(t *testing.T) {
	for _, c := range []store.ChangeCursor{{}, {Pos: 1}, {Pos: 1 << 40, Horizon: 12}, {Pos: 1 << 62, Horizon: 1 << 62}} {
		s := EncodeChangeCursor(c)
		got, ok := decodeChangeCursor(s)
		if !ok || got != c {
			t.Errorf("%+v -> %q -> %+v, %v", c, s, got, ok)
		}
	}
	if _, ok := decodeChangeCursor(EncodeChangeCursor(store.ChangeCursor{Pos: -1})); ok {
		t.Error("a negative position was read back")
	}
}

// FuzzParseChanges: GET /api/changes's query string either parses into a
// cursor that writes back to the same since, or is a 400.
func FuzzParseChanges(f *testing.F) {
	for _, s := range []string{"", "since=", "limit=5", "since=" + EncodeChangeCursor(store.ChangeCursor{Pos: 3, Horizon: 1}),
		"since=c1.AAAAAAAAAAAAAAAAAAAAAA", "since=c1.____________________-_", "limit=99999999999999999999", "since=%ff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := parseChanges(raw)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Body.Error != apierror.InvalidParameter {
				t.Fatalf("parseChanges(%q) = %v, want a 400 invalid_parameter", raw, err)
			}
			return
		}
		if q.limit < 1 || q.limit > changesMaxLimit || q.after.Pos < 0 || q.after.Horizon < 0 {
			t.Fatalf("parseChanges(%q) accepted %+v", raw, q)
		}
		vals, _ := url.ParseQuery(raw)
		if since := vals.Get("since"); since != "" && EncodeChangeCursor(q.after) != since {
			t.Fatalf("parseChanges(%q): since %q reads as %+v, which writes %q", raw, since, q.after, EncodeChangeCursor(q.after))
		}
	})
}
