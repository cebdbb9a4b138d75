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

// TakePendingPings returns the ids among ids still pending
// (wire.PingPending), so a retried job does not redo the URLs it already
// decided, and records on them that attempt jobID of the verify_ping job
// has them (the status reads the job's retries through it).
func (s *Store) TakePendingPings(ctx context.Context, ids []int64, jobID int64) (map[int64]bool, error) {
	rows, err := s.write.Query(ctx, `UPDATE pings SET job_id = $2
		WHERE id = ANY($1) AND state = 'pendente' RETURNING id`, ids, jobID)
	if err != nil {
		return nil, fmt.Errorf("store: take pending pings: %w", err)
	}
	ids, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store: take pending pings: %w", err)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// NotePingRetry records reason (a rejection's words, e.g.
// key_unreachable:timeout) as the last error of the URLs among ids still
// pending, which attempt of their job failed transiently; the URLs stay
// pending and the job is retried. A reason this attempt already recorded
// for a URL is kept (the first failure is the cause).
func (s *Store) NotePingRetry(ctx context.Context, ids []int64, attempt int, reason string) error {
	_, err := s.write.Exec(ctx, `UPDATE pings SET reason = $3, retry_attempt = $2
		WHERE id = ANY($1) AND state = 'pendente' AND retry_attempt IS DISTINCT FROM $2`, ids, attempt, reason)
	if err != nil {
		return fmt.Errorf("store: note ping retry: %w", err)
	}
	return nil
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

// MaxPingStatus is the most submissions one page of PingStatuses holds.
const MaxPingStatus = 100

// Reasons the status shows for a pending URL whose job failed an attempt
// without the worker recording why (NotePingRetry).
const (
	// PingRetryWorkerLost: the worker's process died or hung mid-attempt,
	// and River's rescuer gave the job back to the queue.
	PingRetryWorkerLost = "worker_lost"
	// PingRetryWorkerError: the attempt failed for a cause of ours (the
	// database, say).
	PingRetryWorkerError = "worker_error"
)

// riverRescuedError is the error River's rescuer records on the job of a
// dead process (river v0.51 internal/maintenance/job_rescuer.go).
const riverRescuedError = "Stuck job rescued by JobRescuer"

// PingStatusPage is one page of a host's submitted URLs.
type PingStatusPage struct {
	Items []wire.PingStatus
	// Next is the cursor of the next page (the id of the page's last
	// row), 0 when this page is the last.
	Next int64
}

// PingStatuses returns a page of the submitted URLs of host, newest first:
// at most limit (1..MaxPingStatus), after the row whose id is after (0:
// from the newest). A pending URL whose job is retrying shows its last
// error (what the worker recorded, or worker_lost after a crash) and the
// time River will try it again (retry_at), both read from the job's row.
// It reads the primary, not the read pool: a client that has just pinged
// sees its submission even while a replica is still replaying it.
func (s *Store) PingStatuses(ctx context.Context, host string, limit int, after int64) (PingStatusPage, error) {
	limit = max(1, min(limit, MaxPingStatus))
	rows, err := s.write.Query(ctx, `
		SELECT p.id, p.url, p.state, p.bundle_id, p.received_at, p.checked_at,
		       CASE WHEN p.state = 'pendente'
		             AND coalesce((j.errors[cardinality(j.errors)]->>'attempt')::int, 0) > coalesce(p.retry_attempt, 0)
		            THEN CASE WHEN j.errors[cardinality(j.errors)]->>'error' = $4 THEN $5 ELSE $6 END
		            ELSE p.reason END,
		       CASE WHEN p.state = 'pendente' AND j.attempt > 0
		             AND j.state IN ('retryable', 'scheduled', 'available')
		            THEN j.scheduled_at END
		FROM pings p LEFT JOIN river_job j ON j.id = p.job_id
		WHERE p.host = $1
		  AND ($3 = 0 OR (p.received_at, p.id) < (SELECT received_at, id FROM pings WHERE id = $3 AND host = $1))
		ORDER BY p.received_at DESC, p.id DESC LIMIT $2`,
		host, limit+1, after, riverRescuedError, PingRetryWorkerLost, PingRetryWorkerError)
	if err != nil {
		return PingStatusPage{}, fmt.Errorf("store: ping status %s: %w", host, err)
	}
	page := PingStatusPage{Items: []wire.PingStatus{}}
	var last int64
	for rows.Next() {
		var p wire.PingStatus
		var id int64
		var received time.Time
		var checked, retry *time.Time
		if err := rows.Scan(&id, &p.URL, &p.State, &p.BundleID, &received, &checked, &p.Reason, &retry); err != nil {
			rows.Close()
			return PingStatusPage{}, fmt.Errorf("store: ping status %s: %w", host, err)
		}
		if len(page.Items) == limit {
			page.Next = last
			rows.Close()
			break
		}
		p.ReceivedAt = wire.Timestamp{Time: received.UTC()}
		if checked != nil {
			p.CheckedAt = &wire.Timestamp{Time: checked.UTC()}
		}
		if retry != nil {
			p.RetryAt = &wire.Timestamp{Time: retry.UTC()}
		}
		page.Items = append(page.Items, p)
		last = id
	}
	if err := rows.Err(); err != nil {
		return PingStatusPage{}, fmt.Errorf("store: ping status %s: %w", host, err)
	}
	return page, nil
}
