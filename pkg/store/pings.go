package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// PingDailyCap is the number of bundle URLs one host may submit per UTC day
// (contract section 8).
const PingDailyCap = 200

// ErrPingDailyCap is returned by AcceptPing when the submission would take
// its host past PingDailyCap for the current UTC day. Nothing is recorded.
var ErrPingDailyCap = errors.New("store: host reached its daily ping cap")

// PingURL is one URL of an accepted submission and the row that tracks it.
type PingURL struct {
	ID  int64  `json:"id"`
	URL string `json:"url"`
}

// EnqueueFunc inserts the job of an accepted submission inside the
// submission's transaction (River's InsertTx), so that a ping is recorded
// and queued together or not at all.
type EnqueueFunc func(ctx context.Context, tx pgx.Tx, urls []PingURL) error

// AcceptPing records a submission of urls (distinct, already validated) for
// host with key and calls enqueue in the same transaction. The daily cap is
// counted in URLs and is all-or-nothing per submission: one conditional
// upsert adds len(urls) to the host's count for the UTC day only when the
// sum stays within PingDailyCap, else AcceptPing returns ErrPingDailyCap and
// records nothing. The count is kept apart for a key proven on the host
// (RecordProvenKey) and for any other key, each within PingDailyCap, so
// submissions with unproven keys never refuse the owner's. Concurrent
// submissions serialise on the counter row, so the cap holds exactly.
func (s *Store) AcceptPing(ctx context.Context, host, key string, urls []string, enqueue EnqueueFunc) ([]PingURL, error) {
	if len(urls) == 0 {
		return nil, errors.New("store: accept ping: no URLs")
	}
	if len(urls) > PingDailyCap {
		return nil, ErrPingDailyCap
	}
	now := s.clock()
	var out []PingURL
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		out = out[:0]
		var n int
		err := tx.QueryRow(ctx, `
			INSERT INTO ping_daily AS d (host, day, n, n_unproven)
			SELECT $1, (COALESCE($2::timestamptz, now()) AT TIME ZONE 'UTC')::date,
			       CASE WHEN k.proven THEN $3 ELSE 0 END, CASE WHEN k.proven THEN 0 ELSE $3 END
			FROM (SELECT EXISTS (SELECT 1 FROM ping_keys WHERE host = $1 AND key_sha256 = $5) AS proven) k
			ON CONFLICT (host, day) DO UPDATE
			SET n = d.n + EXCLUDED.n, n_unproven = d.n_unproven + EXCLUDED.n_unproven
			WHERE d.n + EXCLUDED.n <= $4 AND d.n_unproven + EXCLUDED.n_unproven <= $4
			RETURNING n`, host, now, len(urls), PingDailyCap, keyDigest(key)).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrPingDailyCap
		}
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `
			INSERT INTO pings (host, url, received_at)
			SELECT $1, u.url, COALESCE($3::timestamptz, now())
			FROM unnest($2::text[]) WITH ORDINALITY AS u(url, ord)
			ORDER BY u.ord
			RETURNING id, url`, host, urls, now)
		if err != nil {
			return err
		}
		for rows.Next() {
			var p PingURL
			if err := rows.Scan(&p.ID, &p.URL); err != nil {
				rows.Close()
				return err
			}
			out = append(out, p)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return enqueue(ctx, tx, out)
	})
	if errors.Is(err, ErrPingDailyCap) {
		return nil, ErrPingDailyCap
	}
	if err != nil {
		return nil, fmt.Errorf("store: accept ping %s: %w", host, err)
	}
	return out, nil
}

// PendingPings returns the ids among ids still pending (wire.PingPending), so a retried
// job does not redo the URLs it already decided.
func (s *Store) PendingPings(ctx context.Context, ids []int64) (map[int64]bool, error) {
	rows, err := s.write.Query(ctx, `SELECT id FROM pings WHERE id = ANY($1) AND state = 'pendente'`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: pending pings: %w", err)
	}
	ids, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store: pending pings: %w", err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// PublishPing marks a submitted URL published as bundleID.
func (s *Store) PublishPing(ctx context.Context, id int64, bundleID string) error {
	return s.decidePing(ctx, id, wire.PingPublished, &bundleID, nil)
}

// RejectPing marks a submitted URL rejected for reason (a short snake_case
// word, optionally followed by ":" and the fetch failure, e.g.
// key_unreachable:http_status).
func (s *Store) RejectPing(ctx context.Context, id int64, reason string) error {
	return s.decidePing(ctx, id, wire.PingRejected, nil, &reason)
}

func (s *Store) decidePing(ctx context.Context, id int64, state wire.PingState, bundleID, reason *string) error {
	_, err := s.write.Exec(ctx, `
		UPDATE pings SET state = $2, bundle_id = $3, reason = $4, checked_at = COALESCE($5::timestamptz, now())
		WHERE id = $1`, id, state, bundleID, reason, s.clock())
	if err != nil {
		return fmt.Errorf("store: record ping %d %s: %w", id, state, err)
	}
	return nil
}

// MaxPingStatus is the most submissions PingStatuses returns.
const MaxPingStatus = 100

// PingStatuses returns the newest submitted URLs of host, newest first, at
// most limit (1..MaxPingStatus).
func (s *Store) PingStatuses(ctx context.Context, host string, limit int) ([]wire.PingStatus, error) {
	limit = max(1, min(limit, MaxPingStatus))
	rows, err := s.read.Query(ctx, `
		SELECT url, state, bundle_id, reason, received_at, checked_at
		FROM pings WHERE host = $1
		ORDER BY received_at DESC, id DESC LIMIT $2`, host, limit)
	if err != nil {
		return nil, fmt.Errorf("store: ping status %s: %w", host, err)
	}
	out := []wire.PingStatus{}
	for rows.Next() {
		var p wire.PingStatus
		var received time.Time
		var checked *time.Time
		if err := rows.Scan(&p.URL, &p.Estado, &p.BundleID, &p.Reason, &received, &checked); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: ping status %s: %w", host, err)
		}
		p.ReceivedAt = wire.Timestamp{Time: received.UTC()}
		if checked != nil {
			p.CheckedAt = &wire.Timestamp{Time: checked.UTC()}
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ping status %s: %w", host, err)
	}
	return out, nil
}
