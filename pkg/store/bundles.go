package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// bundleColumns are the columns of a card, in the order scanBundle reads.
const bundleColumns = `id, visibility, name, tagline, description, okf_version, concepts,
	concept_list, type, index_url, page_url, origin, via, source_url, host, repo, dir, path,
	repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language, repo_license,
	indexed_at, updated_at, cut, look_alike_of`

// scanBundle reads one row of bundleColumns, then into extra the columns
// that follow them, if any.
func scanBundle(row pgx.Row, extra ...any) (Bundle, error) {
	var (
		b                  Bundle
		stars, forks       *int
		pushedAt           *time.Time
		indexed, updated   time.Time
		state, lang, licen *string
	)
	dest := []any{&b.ID, &b.Visibility, &b.Name, &b.Tagline, &b.Description, &b.OKFVersion,
		&b.Concepts, &b.ConceptList, &b.Type, &b.IndexURL, &b.PageURL, &b.Source.Origin, &b.Source.Via,
		&b.Source.URL, &b.Source.Host, &b.Source.Repo, &b.Source.Dir, &b.Source.Path,
		&stars, &forks, &pushedAt, &state, &lang, &licen, &indexed, &updated, &b.Cut, &b.LookAlikeOf}
	err := row.Scan(append(dest, extra...)...)
	if err != nil {
		return Bundle{}, err
	}
	if b.Source.Repo != nil {
		sig := &wire.RepoSignal{State: state, Language: lang, License: licen}
		if stars != nil {
			sig.Stars = *stars
		}
		if forks != nil {
			sig.Forks = *forks
		}
		if pushedAt != nil {
			sig.PushedAt = &wire.Timestamp{Time: pushedAt.UTC()}
		}
		b.Repo = sig
	}
	if len(b.Cut) == 0 {
		b.Cut = nil // nothing cut: the card has no cut field
	}
	b.IndexedAt = wire.Timestamp{Time: indexed.UTC()}
	b.UpdatedAt = wire.Timestamp{Time: updated.UTC()}
	return b, nil
}

// cardSQL reads a live or low bundle's card by its id ($1).
const cardSQL = `SELECT ` + bundleColumns + `, imported FROM bundles WHERE id = $1 AND visibility <> 'hidden'`

// GetBundle returns a live or low bundle; ErrNotFound otherwise.
func (s *Store) GetBundle(ctx context.Context, id string) (Bundle, error) {
	var imported bool
	b, err := scanBundle(s.lookup.QueryRow(ctx, cardSQL, id), &imported)
	b.Imported = imported
	if errors.Is(err, pgx.ErrNoRows) {
		return Bundle{}, ErrNotFound
	}
	if err != nil {
		return Bundle{}, fmt.Errorf("store: get bundle %s: %w", id, err)
	}
	return b, nil
}

// stored is what a writer reads of a bundle before changing it, under the
// bundle's lock.
type stored struct {
	contentHash string
	rootSHA256  string
	visibility  wire.Visibility
	sig         signalCols
	analysis    int // the analysisVersion that wrote its search columns
}

// lockAndRead takes the bundle's advisory lock and reads its current row;
// nil when there is none. Writers of one bundle take this lock first, so
// what it returns stays true until the transaction ends.
func lockAndRead(ctx context.Context, tx pgx.Tx, id string) (*stored, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, lockClassBundle, lockKey(id)); err != nil {
		return nil, err
	}
	stored, err := readStored(ctx, tx, []string{id})
	if err != nil {
		return nil, err
	}
	return stored[id], nil
}

// UpsertBundle writes one parsed bundle.
//
// The bundle's id and indexed_at never change; updated_at moves only when
// the indexed content (content hash) changes; repository signals are always
// refreshed; a hidden bundle that is written again is visible again. An
// upsert that would change nothing writes nothing. Visibility follows
// DESIGN.md: low for example and fixture paths; among exact duplicates (same
// RootSHA256) the earliest indexed is live and the others are low.
func (s *Store) UpsertBundle(ctx context.Context, in BundleInput) (UpsertResult, error) {
	res, err := s.UpsertBundles(ctx, []BundleInput{in})
	if err != nil {
		return UpsertResult{}, err
	}
	return res[0], nil
}

// withdraw runs stmt ($1 = id) on one bundle under its lock and its
// duplicate group's lock, then reconciles the group so the next copy becomes
// live: the path of HideBundle (and of the tests' DeleteBundle). With skipHidden, a
// bundle already hidden is left alone. ErrNotFound when there is no bundle.
func (s *Store) withdraw(ctx context.Context, id, verb, stmt string, skipHidden bool) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		old, err := lockAndRead(ctx, tx, id)
		if err != nil {
			return err
		}
		if old == nil {
			return ErrNotFound
		}
		if skipHidden && old.visibility == wire.VisibilityHidden {
			return nil
		}
		if err := lockGroups(ctx, tx, []string{old.rootSHA256}); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, stmt, id); err != nil {
			return err
		}
		return reconcile(ctx, tx, []string{old.rootSHA256})
	})
	if errors.Is(err, ErrNotFound) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: %s bundle %s: %w", verb, id, err)
	}
	return nil
}
