package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/okfindex/okf-index/pkg/cardsize"
)

// Why the database cannot hold a bundle as given: the Reason of a Refusal.
const (
	RefusedInvalidSignals = "invalid_signals" // stars or forks out of range (cardsize.CheckSignal)
	RefusedTooLarge       = "too_large"       // past a limit of Postgres (SQLSTATE class 54: an index row, a text search vector)
	RefusedInvalidValue   = "invalid_value"   // a value Postgres refuses (class 22: out of range, bad encoding)
	RefusedConstraint     = "constraint"      // a check of the table (class 23)
)

// Refusal is a bundle the database cannot hold as given: the bundle's
// fault, not the database's. Writers record it (the owner status, the ping
// status, import's output) and write the rest; retrying it cannot succeed.
type Refusal struct {
	Index  int    // the bundle's place in the input of UpsertIsolated
	ID     string // the bundle's id
	Reason string // a Refused* word
	Err    error
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("store: bundle %s refused (%s): %v", r.ID, r.Reason, r.Err)
}

func (r *Refusal) Unwrap() error { return r.Err }

// AsRefusal returns the Refusal err is or wraps, or one for an error of
// Postgres that only a bundle's data causes (SQLSTATE classes 22, 23 and
// 54); nil for any other error (the database unavailable, a timeout, a bug),
// which the caller retries or fails on.
func AsRefusal(err error) *Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || len(pg.Code) != 5 {
		return nil
	}
	switch pg.Code[:2] {
	case "54":
		return &Refusal{Reason: RefusedTooLarge, Err: err}
	case "22":
		return &Refusal{Reason: RefusedInvalidValue, Err: err}
	case "23":
		return &Refusal{Reason: RefusedConstraint, Err: err}
	}
	return nil
}

// checkInput refuses what no write of in could store: signals out of range.
// Every other field is fitted to its size by newBundleRow.
func checkInput(in BundleInput) error {
	if in.Repo == nil {
		return nil
	}
	if err := cardsize.CheckSignal(int64(in.Repo.Stars), int64(in.Repo.Forks)); err != nil {
		return &Refusal{ID: in.ID, Reason: RefusedInvalidSignals, Err: err}
	}
	return nil
}

// UpsertIsolated writes ins as UpsertBundles does, MaxBatch at a time, so
// that no bundle keeps the others out: a bundle checkInput refuses is left
// out of its batch, and a batch whose write fails for any cause but the
// database's unavailability or ctx is written again bundle by bundle. It
// returns one result per input, in order (the zero UpsertResult for a
// refused one), and the refusals, in input order. An error is returned
// only for a failure that is not a bundle's fault (the database
// unavailable, a timeout): then the caller retries, and what was written
// stays written.
func (s *Store) UpsertIsolated(ctx context.Context, ins []BundleInput) ([]UpsertResult, []*Refusal, error) {
	out := make([]UpsertResult, len(ins))
	var refused []*Refusal
	refuse := func(i int, err error) bool {
		r := AsRefusal(err)
		if r == nil {
			return false
		}
		c := *r
		c.Index, c.ID = i, ins[i].ID
		refused = append(refused, &c)
		return true
	}
	var batch []BundleInput
	var at []int // the input index of each bundle of batch
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		res, err := s.UpsertBundles(ctx, batch)
		if err == nil {
			for k, r := range res {
				out[at[k]] = r
			}
			batch, at = batch[:0], at[:0]
			return nil
		}
		if ctx.Err() != nil || IsUnavailable(err) || len(batch) == 1 && !refuse(at[0], err) {
			return err
		}
		if len(batch) == 1 {
			batch, at = batch[:0], at[:0]
			return nil
		}
		for k, in := range batch { // one by one: the bundle at fault fails alone
			r, err := s.UpsertBundle(ctx, in)
			switch {
			case err == nil:
				out[at[k]] = r
			case !refuse(at[k], err):
				return err
			}
		}
		batch, at = batch[:0], at[:0]
		return nil
	}
	for i, in := range ins {
		if err := checkInput(in); err != nil {
			refuse(i, err)
			continue
		}
		batch, at = append(batch, in), append(at, i)
		if len(batch) == MaxBatch {
			if err := flush(); err != nil {
				return out, refused, err
			}
		}
	}
	if err := flush(); err != nil {
		return out, refused, err
	}
	// A batch's one-by-one pass can find a refusal after the checks of
	// later inputs.
	slices.SortFunc(refused, func(a, b *Refusal) int { return cmp.Compare(a.Index, b.Index) })
	return out, refused, nil
}
