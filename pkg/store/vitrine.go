package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The usage projection and operator views of the full variant (contract
// 2.8 and 4.7; db/migrations/0013_vitrine.sql): the measured days and their
// visitor salts, the per-day distinct visitors, and the documents the
// collector publishes.

// Kinds of vitrine documents (vitrine_documents.kind).
const (
	VitrinePublic   = "publico"  // GET /api/vitrine: the rounded public projection
	VitrineOperator = "operador" // GET /api/vitrine/operador: the unrounded document
	VitrinePanel    = "painel"   // GET /api/vitrine/painel
	VitrineCursors  = "cursores" // GET /api/vitrine/cursores
)

// VisitorMetric is the usage_daily metric of a closed day's distinct
// visitors (an open day's are counted from usage_visitors).
const VisitorMetric = "okf_visitor"

// ErrDayClosed: the day's visitors were already counted and its salt
// thrown away, so no visitor can be added to it any more.
var ErrDayClosed = errors.New("store: usage day closed")

// OpenUsageDay marks day (UTC) as measured and returns its visitor salt,
// creating both on the first call of the day from any replica. It returns
// ErrDayClosed when the day was closed.
func (s *Store) OpenUsageDay(ctx context.Context, day time.Time) ([]byte, error) {
	salt := make([]byte, 32)
	rand.Read(salt) // never fails (crypto/rand)
	d := day.UTC().Format(time.DateOnly)
	var got []byte
	var err error
	// Two replicas opening the day at once: the second insert waits for the
	// first and then does nothing, but its statement's snapshot predates the
	// first's commit, so it finds no row at all. Asked again, it sees the
	// committed row (a third try only if that row was deleted meanwhile).
	for range 3 {
		err = s.write.QueryRow(ctx, `
WITH ins AS (
	INSERT INTO usage_days (day, visitor_salt) VALUES ($1::date, $2)
	ON CONFLICT (day) DO NOTHING
	RETURNING visitor_salt
)
SELECT visitor_salt FROM ins
UNION ALL
SELECT visitor_salt FROM usage_days WHERE day = $1::date AND NOT EXISTS (SELECT 1 FROM ins)`, d, salt).Scan(&got)
		if !errors.Is(err, pgx.ErrNoRows) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: open usage day %s: %w", d, err)
	}
	if got == nil {
		return nil, ErrDayClosed
	}
	return got, nil
}

// AddVisitors adds hashed visitors (8 bytes each) to an open day; a hash
// already there is not added twice, and hashes for a closed or unknown day
// are dropped.
func (s *Store) AddVisitors(ctx context.Context, day time.Time, hashes [][]byte) error {
	if len(hashes) == 0 {
		return nil
	}
	_, err := s.write.Exec(ctx, `
INSERT INTO usage_visitors (day, h)
SELECT $1::date, h FROM unnest($2::bytea[]) AS t (h)
WHERE EXISTS (SELECT 1 FROM usage_days WHERE day = $1::date AND visitor_salt IS NOT NULL)
ORDER BY h
ON CONFLICT DO NOTHING`, day.UTC().Format(time.DateOnly), hashes)
	if err != nil {
		return fmt.Errorf("store: add visitors: %w", err)
	}
	return nil
}

// CloseUsageDays closes every open day before the UTC day of before: its
// distinct visitors become the usage_daily counter VisitorMetric (0 when
// none), its hashes are deleted and its salt thrown away, in one
// transaction per call. It returns how many days it closed.
func (s *Store) CloseUsageDays(ctx context.Context, before time.Time) (int, error) {
	d := before.UTC().Format(time.DateOnly)
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `
SELECT day FROM usage_days WHERE day < $1::date AND visitor_salt IS NOT NULL ORDER BY day FOR UPDATE`, d)
		if err != nil {
			return err
		}
		days, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
		if err != nil {
			return err
		}
		for _, day := range days {
			if _, err := tx.Exec(ctx, `
INSERT INTO usage_daily (day, metric, n)
SELECT $1::date, $2, count(*) FROM usage_visitors WHERE day = $1::date
ON CONFLICT (day, metric) DO UPDATE SET n = EXCLUDED.n`, day, VisitorMetric); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM usage_visitors WHERE day = $1::date`, day); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE usage_days SET visitor_salt = NULL WHERE day = $1::date`, day); err != nil {
				return err
			}
		}
		n = len(days)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: close usage days: %w", err)
	}
	return n, nil
}

// MeasuredDay is a UTC day on which the API counted usage, with its
// distinct visitors: the closed count, or the open day's hashes so far.
type MeasuredDay struct {
	Day      time.Time
	Visitors int64
}

// MeasuredDays returns the measured days from first to last, inclusive,
// oldest first.
func (s *Store) MeasuredDays(ctx context.Context, first, last time.Time) ([]MeasuredDay, error) {
	rows, err := s.write.Query(ctx, `
SELECT d.day, COALESCE(
	(SELECT u.n FROM usage_daily u WHERE u.day = d.day AND u.metric = $3),
	(SELECT count(*) FROM usage_visitors v WHERE v.day = d.day))
FROM usage_days d
WHERE d.day BETWEEN $1::date AND $2::date
ORDER BY d.day`, first.UTC().Format(time.DateOnly), last.UTC().Format(time.DateOnly), VisitorMetric)
	if err != nil {
		return nil, fmt.Errorf("store: measured days: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (MeasuredDay, error) {
		var m MeasuredDay
		err := r.Scan(&m.Day, &m.Visitors)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: measured days: %w", err)
	}
	return out, nil
}

// FirstUsageDay is the oldest day with any usage counter or measured-day
// row; nil when nothing was ever counted.
func (s *Store) FirstUsageDay(ctx context.Context) (*time.Time, error) {
	var d *time.Time
	err := s.write.QueryRow(ctx, `
SELECT least((SELECT min(day) FROM usage_daily), (SELECT min(day) FROM usage_days))`).Scan(&d)
	if err != nil {
		return nil, fmt.Errorf("store: first usage day: %w", err)
	}
	return d, nil
}

// LastUsageFlush is when the newest usage flush of any API process was
// applied (flush ids are kept two days); nil when none is remembered.
func (s *Store) LastUsageFlush(ctx context.Context) (*time.Time, error) {
	var t *time.Time
	if err := s.write.QueryRow(ctx, `SELECT max(flushed_at) FROM usage_flushes`).Scan(&t); err != nil {
		return nil, fmt.Errorf("store: last usage flush: %w", err)
	}
	return t, nil
}

// VitrineDoc is one published document of the collector.
type VitrineDoc struct {
	Hour        time.Time // the UTC hour of its publication
	PublishedAt time.Time
	Doc         []byte // JSON
}

// PublishVitrine writes the documents of one publication (kind to JSON)
// for product, stamped with the UTC hour of publishedAt, in one
// transaction. A kind already published within that hour or a later one
// is left as it is, so a second run within the hour changes nothing. It
// reports whether anything was written.
func (s *Store) PublishVitrine(ctx context.Context, product string, publishedAt time.Time, docs map[string][]byte) (bool, error) {
	hour := publishedAt.UTC().Truncate(time.Hour)
	wrote := false
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		wrote = false
		for _, kind := range []string{VitrinePublic, VitrineOperator, VitrinePanel, VitrineCursors} {
			doc, ok := docs[kind]
			if !ok {
				continue
			}
			tag, err := tx.Exec(ctx, `
INSERT INTO vitrine_documents AS v (produto, kind, hour, published_at, doc)
VALUES ($1, $2, $3, $4, $5::json)
ON CONFLICT (produto, kind) DO UPDATE
SET hour = EXCLUDED.hour, published_at = EXCLUDED.published_at, doc = EXCLUDED.doc
WHERE v.hour < EXCLUDED.hour`, product, kind, hour, publishedAt.UTC(), string(doc))
			if err != nil {
				return err
			}
			wrote = wrote || tag.RowsAffected() > 0
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: publish vitrine: %w", err)
	}
	return wrote, nil
}

// VitrineDocument returns the latest published document of a kind for
// product; ok is false before the first publication.
func (s *Store) VitrineDocument(ctx context.Context, product, kind string) (doc VitrineDoc, ok bool, err error) {
	var raw string
	err = s.read.QueryRow(ctx, `
SELECT hour, published_at, doc::text FROM vitrine_documents WHERE produto = $1 AND kind = $2`, product, kind).
		Scan(&doc.Hour, &doc.PublishedAt, &raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return VitrineDoc{}, false, nil
	}
	if err != nil {
		return VitrineDoc{}, false, fmt.Errorf("store: vitrine document %s/%s: %w", product, kind, err)
	}
	doc.Doc = []byte(raw)
	return doc, true, nil
}

// PublicProjection returns the latest published public usage projection of
// product (GET /api/vitrine's document before its stale flag is set at
// read time); ok is false before the first publication.
func (s *Store) PublicProjection(ctx context.Context, product string) (VitrineDoc, bool, error) {
	return s.VitrineDocument(ctx, product, VitrinePublic)
}
