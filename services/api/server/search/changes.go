package search

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/query"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// GET /api/changes: the change feed (an extension; store/changes.go says how
// events are written and ordered). A client that starts without since and
// follows next, applying added and updated as "in the set" and removed as
// "not in the set", holds exactly the live bundles that search returns.

// Limits of the feed's pages: limit is read as search reads it (digits, at
// least 1, above the maximum counts as the maximum), default the maximum.
const (
	changesMaxLimit     = 100
	changesDefaultLimit = 100
	// cursorPrefix marks this encoding of a cursor, so that a later one can
	// be told apart.
	cursorPrefix = "c1."
	// maxSinceLen bounds since before it is decoded.
	maxSinceLen = 64
	// lastModifiedSettle: a page's Last-Modified is sent only once its
	// newest event is this old. HTTP dates have whole seconds, so a
	// Last-Modified in the current second could hide, from a client that
	// sends only If-Modified-Since, an event placed later in that second.
	lastModifiedSettle = 2 * time.Second
)

// changesQuery is a validated request of the feed.
type changesQuery struct {
	after store.ChangeCursor
	limit int
}

// parseChanges validates the query string of GET /api/changes. since is
// optional (absent or empty: from the start) and must be a cursor this
// service wrote; limit as above. Unknown parameters are ignored, as in
// search.
func parseChanges(rawQuery string) (changesQuery, error) {
	q := changesQuery{limit: changesDefaultLimit}
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return q, apierror.Parameter("", "The query string is not valid URL encoding.")
	}
	r := query.Reader{Vals: vals}
	if since, ok := r.Scalar("since", false); ok {
		if r.MaxLen("since", since, maxSinceLen) {
			c, ok := decodeChangeCursor(since)
			if !ok {
				r.Fail(apierror.Parameter("since", "since must be a cursor copied from the next of a page of this feed; leave it out to start at the beginning."))
			}
			q.after = c
		}
	}
	if limit, ok := r.Scalar("limit", false); ok {
		n, valid := query.WholeNumber(limit, changesMaxLimit)
		if !valid || n < 1 {
			r.Fail(apierror.Parameter("limit", "limit must be a whole number of at least 1 (above 100 it counts as 100)."))
		}
		q.limit = n
	}
	return q, r.Err()
}

// EncodeChangeCursor writes a cursor: the prefix, then base64url of the
// position and the horizon, 8 bytes each, big-endian.
func EncodeChangeCursor(c store.ChangeCursor) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(c.Pos))
	binary.BigEndian.PutUint64(b[8:], uint64(c.Horizon))
	return cursorPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// decodeChangeCursor reads a cursor EncodeChangeCursor wrote; only that
// exact form is accepted (no padding, no other alphabet, no negative
// number).
func decodeChangeCursor(s string) (store.ChangeCursor, bool) {
	if len(s) != len(cursorPrefix)+22 || s[:len(cursorPrefix)] != cursorPrefix {
		return store.ChangeCursor{}, false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s[len(cursorPrefix):])
	if err != nil || len(b) != 16 {
		return store.ChangeCursor{}, false
	}
	pos, horizon := binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	if pos > 1<<62 || horizon > 1<<62 {
		return store.ChangeCursor{}, false
	}
	return store.ChangeCursor{Pos: int64(pos), Horizon: int64(horizon)}, true
}

// getChanges answers GET /api/changes.
func (s *Service) getChanges(c echo.Context) error {
	q, err := parseChanges(c.Request().URL.RawQuery)
	if err != nil {
		return err
	}
	page, newest, err := s.changes(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return respond.JSONConditional(c, page, s.settled(newest), respond.CacheChanges)
}

// changes reads one page of the feed; newest is when its last event was
// placed (zero for an empty page).
func (s *Service) changes(ctx context.Context, q changesQuery) (wire.ChangePage, time.Time, error) {
	got, err := s.d.Store.Changes(ctx, q.after, q.limit)
	switch {
	case errors.Is(err, store.ErrCursorAhead):
		return wire.ChangePage{}, time.Time{}, apierror.Parameter("since", "since names a position past the newest change; copy it from the next of a page of this feed.")
	case errors.Is(err, store.ErrCursorExpired):
		return wire.ChangePage{}, time.Time{}, apierror.New(apierror.CursorExpired,
			"since is older than the changes this service keeps; start again without since and rebuild the set from the beginning.").At("since")
	case err != nil:
		return wire.ChangePage{}, time.Time{}, err
	}
	next := EncodeChangeCursor(got.Next)
	page := wire.ChangePage{Items: make([]wire.Change, len(got.Changes)), Limit: q.limit, Next: next,
		NextURL: s.d.BaseURL + "/api/changes?since=" + next + "&limit=" + strconv.Itoa(q.limit), More: got.More}
	var newest time.Time
	for i, ch := range got.Changes {
		page.Items[i] = s.publishChange(ch)
		newest = ch.PlacedAt
	}
	return page, newest, nil
}

// publishChange is an event as the feed answers it.
func (s *Service) publishChange(ch store.Change) wire.Change {
	out := wire.Change{Event: ch.Kind, ID: ch.BundleID, At: wire.Timestamp{Time: ch.At.Truncate(time.Second)}}
	if ch.Kind == wire.ChangeRemoved {
		out.Tombstone = &wire.Tombstone{Reason: ch.Reason}
	} else {
		api := s.d.BaseURL + "/api/bundles/" + ch.BundleID
		out.API = &api
	}
	return out
}

// settled is t when it is at least lastModifiedSettle old, else zero (no
// Last-Modified).
func (s *Service) settled(t time.Time) time.Time {
	if t.IsZero() || s.d.Now().Sub(t) < lastModifiedSettle {
		return time.Time{}
	}
	return t
}
