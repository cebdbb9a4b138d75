package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// The change feed (db/migrations/0015_changes.sql): triggers on bundles
// append an event to bundle_changes for every change of the live set and
// of a live card; okf_sequence_changes gives committed events their
// position in commit order; readers page by position. The feed is read
// from the write pool: placing events writes, and a cursor from the primary
// must never be ahead of what a lagging replica shows.

// ErrCursorAhead is returned by Changes for a position past the newest
// event: no answer of the feed gave that cursor.
var ErrCursorAhead = errors.New("store: change cursor is past the newest change")

// ErrCursorExpired is returned by Changes for a position older than the
// retained events (CompactChanges dropped tombstones past it): the client
// must start again from the beginning.
var ErrCursorExpired = errors.New("store: change cursor is older than the retained changes")

// Change is one event of the feed as the store keeps it.
type Change struct {
	Pos      int64 // position in commit order, from 1
	BundleID string
	Kind     wire.ChangeKind
	Reason   wire.RemovalReason // set exactly for wire.ChangeRemoved
	At       time.Time          // when the change was written
	PlacedAt time.Time          // when it got its position; grows with Pos
	Name     string             // the bundle's current name (RecentChanges only)
}

// lockClassChanges is the advisory lock class of the placer of events
// (okf_sequence_changes, key 1); apart from the classes of visibility.go.
const lockClassChanges int32 = 0x6f6b10

// MaxChangesLimit is the most events Changes returns at once.
const MaxChangesLimit = 1000

// placeChanges gives committed events their positions. A database that
// refuses writes (read-only) still serves what was placed before.
func (s *Store) placeChanges(ctx context.Context) error {
	if _, err := s.write.Exec(ctx, `SELECT okf_sequence_changes()`); err != nil && !IsUnavailable(err) {
		return fmt.Errorf("store: place changes: %w", err)
	}
	return nil
}

// ChangeCursor is where a reader of the feed stands: after the event at
// Pos (0: before the first), having started or continued when the horizon
// was Horizon.
type ChangeCursor struct {
	Pos     int64
	Horizon int64
}

// ChangePage is what Changes returns: events, whether more were waiting,
// and the cursor that follows the last event.
type ChangePage struct {
	Changes []Change
	More    bool
	Next    ChangeCursor
}

// Changes returns up to limit events after the cursor, oldest first. The
// zero cursor starts at the beginning. A position past the newest event is
// ErrCursorAhead. A cursor is expired (ErrCursorExpired) when tombstones
// after its position were dropped since it was given (the horizon moved
// past it): the removals it would have missed are gone.
func (s *Store) Changes(ctx context.Context, after ChangeCursor, limit int) (ChangePage, error) {
	if limit < 1 || limit > MaxChangesLimit {
		return ChangePage{}, fmt.Errorf("store: changes: limit %d outside 1..%d", limit, MaxChangesLimit)
	}
	if err := s.placeChanges(ctx); err != nil {
		return ChangePage{}, err
	}
	var minPos, head int64
	if err := s.write.QueryRow(ctx, `SELECT min_pos, (SELECT coalesce(max(pos), 0) FROM bundle_changes)
		FROM bundle_changes_horizon`).Scan(&minPos, &head); err != nil {
		return ChangePage{}, fmt.Errorf("store: changes: %w", err)
	}
	switch {
	case after.Pos > max(head, minPos) || after.Horizon > minPos:
		return ChangePage{}, ErrCursorAhead
	case after.Pos < minPos && after.Horizon < minPos && (after.Pos > 0 || after.Horizon > 0):
		return ChangePage{}, ErrCursorExpired
	}
	rows, err := s.write.Query(ctx, `SELECT pos, bundle_id, kind, coalesce(reason, ''), at, placed_at
		FROM bundle_changes WHERE pos > $1 ORDER BY pos LIMIT $2`, after.Pos, limit+1)
	if err != nil {
		return ChangePage{}, fmt.Errorf("store: changes: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanChange)
	if err != nil {
		return ChangePage{}, fmt.Errorf("store: changes: %w", err)
	}
	page := ChangePage{Changes: out, Next: ChangeCursor{Pos: after.Pos, Horizon: minPos}}
	if len(out) > limit {
		page.Changes, page.More = out[:limit], true
	}
	if n := len(page.Changes); n > 0 {
		page.Next.Pos = page.Changes[n-1].Pos
	}
	return page, nil
}

// RecentChanges returns the newest n events, newest first, with the names
// their bundles have now (for /feed.atom).
func (s *Store) RecentChanges(ctx context.Context, n int) ([]Change, error) {
	if err := s.placeChanges(ctx); err != nil {
		return nil, err
	}
	rows, err := s.write.Query(ctx, `SELECT c.pos, c.bundle_id, c.kind, coalesce(c.reason, ''), c.at,
			c.placed_at, coalesce(b.name, '')
		FROM (SELECT * FROM bundle_changes WHERE pos IS NOT NULL ORDER BY pos DESC LIMIT $1) AS c
		LEFT JOIN bundles AS b ON b.id = c.bundle_id
		ORDER BY c.pos DESC`, n)
	if err != nil {
		return nil, fmt.Errorf("store: recent changes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Change, error) {
		var c Change
		err := row.Scan(&c.Pos, &c.BundleID, &c.Kind, &c.Reason, &c.At, &c.PlacedAt, &c.Name)
		c.At, c.PlacedAt = c.At.UTC(), c.PlacedAt.UTC()
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: recent changes: %w", err)
	}
	return out, nil
}

func scanChange(row pgx.CollectableRow) (Change, error) {
	var c Change
	err := row.Scan(&c.Pos, &c.BundleID, &c.Kind, &c.Reason, &c.At, &c.PlacedAt)
	c.At, c.PlacedAt = c.At.UTC(), c.PlacedAt.UTC()
	return c, err
}

// CompactChanges drops events no client needs, and returns how many it
// dropped: every event of a bundle but its newest (applying only the
// newest gives the same set, from any cursor), and the newest when it is a
// tombstone placed before cutoff (nobody should still hold a cursor that
// old). A cursor older than a dropped tombstone would miss the removal, so
// the horizon moves past it and such a cursor is ErrCursorExpired; the
// start (0) always works, since every live bundle keeps its newest event.
func (s *Store) CompactChanges(ctx context.Context, cutoff time.Time) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// The placer's lock: no position is given while the horizon moves.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 1)`, lockClassChanges); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM bundle_changes WHERE seq IN (
			SELECT seq FROM (SELECT seq, row_number() OVER (PARTITION BY bundle_id ORDER BY pos DESC) AS r
			                 FROM bundle_changes WHERE pos IS NOT NULL) AS s
			WHERE r > 1)`)
		if err != nil {
			return err
		}
		var dropped int64
		var horizon *int64
		err = tx.QueryRow(ctx, `WITH d AS (
				DELETE FROM bundle_changes WHERE pos IS NOT NULL AND kind = 'removed' AND placed_at < $1
				RETURNING pos)
			SELECT count(*), max(pos) FROM d`, cutoff).Scan(&dropped, &horizon)
		if err != nil {
			return err
		}
		n = tag.RowsAffected() + dropped
		if horizon == nil {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE bundle_changes_horizon SET min_pos = greatest(min_pos, $1)`, *horizon)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: compact changes: %w", err)
	}
	return n, nil
}
