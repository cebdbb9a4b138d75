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
	indexed_at, updated_at`

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
		&stars, &forks, &pushedAt, &state, &lang, &licen, &indexed, &updated}
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
	b.IndexedAt = wire.Timestamp{Time: indexed.UTC()}
	b.UpdatedAt = wire.Timestamp{Time: updated.UTC()}
	return b, nil
}

// GetBundle returns a live or low bundle; ErrNotFound otherwise.
func (s *Store) GetBundle(ctx context.Context, id string) (Bundle, error) {
	b, err := scanBundle(s.read.QueryRow(ctx,
		`SELECT `+bundleColumns+` FROM bundles WHERE id = $1 AND visibility <> 'hidden'`, id))
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
}

// lockAndRead takes the bundle's advisory lock and reads its current row;
// nil when there is none. Writers of one bundle take this lock first, so
// what it returns stays true until the transaction ends.
func lockAndRead(ctx context.Context, tx pgx.Tx, id string) (*stored, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, lockClassBundle, lockKey(id)); err != nil {
		return nil, err
	}
	var st stored
	err := tx.QueryRow(ctx, `SELECT content_hash, root_sha256, visibility,
			repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language, repo_license
		FROM bundles WHERE id = $1`, id).Scan(&st.contentHash, &st.rootSHA256, &st.visibility,
		&st.sig.Stars, &st.sig.Forks, &st.sig.PushedAt, &st.sig.State, &st.sig.Language, &st.sig.License)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if st.sig.PushedAt != nil {
		t := st.sig.PushedAt.UTC()
		st.sig.PushedAt = &t
	}
	return &st, nil
}

// upsertSQL writes a bundle. A new bundle starts live, or low when its path
// says so or an earlier non-hidden copy of its root exists; an existing one
// keeps indexed_at, and keeps updated_at unless its content hash changed.
// Reconciliation of the duplicate group follows in the same transaction.
const upsertSQL = `
INSERT INTO bundles AS b (id, visibility, path_low, name, tagline, description, okf_version,
	concepts, concept_list, type, index_url, page_url, origin, via, source_url, host, repo,
	dir, path, ident, repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language,
	repo_license, root_sha256, content_hash, indexed_at, updated_at)
SELECT $1,
	CASE WHEN $2::boolean THEN 'low'
	     WHEN EXISTS (SELECT 1 FROM bundles o WHERE o.root_sha256 = $26 AND o.id <> $1
	                  AND o.visibility <> 'hidden' AND NOT o.path_low) THEN 'low'
	     ELSE 'live' END,
	$2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
	$20, $21, $22, $23, $24, $25, $26, $27,
	coalesce($28::timestamptz, now()), coalesce($28::timestamptz, now())
ON CONFLICT (id) DO UPDATE SET
	visibility = CASE WHEN excluded.path_low THEN 'low'
	     WHEN EXISTS (SELECT 1 FROM bundles o WHERE o.root_sha256 = excluded.root_sha256
	                  AND o.id <> b.id AND o.visibility <> 'hidden' AND NOT o.path_low
	                  AND (o.indexed_at, o.id) < (b.indexed_at, b.id)) THEN 'low'
	     ELSE 'live' END,
	path_low = excluded.path_low, name = excluded.name, tagline = excluded.tagline,
	description = excluded.description, okf_version = excluded.okf_version,
	concepts = excluded.concepts, concept_list = excluded.concept_list, type = excluded.type,
	index_url = excluded.index_url, page_url = excluded.page_url, origin = excluded.origin,
	via = excluded.via, source_url = excluded.source_url, host = excluded.host,
	repo = excluded.repo, dir = excluded.dir, path = excluded.path, ident = excluded.ident,
	repo_stars = excluded.repo_stars, repo_forks = excluded.repo_forks,
	repo_pushed_at = excluded.repo_pushed_at, repo_state = excluded.repo_state,
	repo_language = excluded.repo_language, repo_license = excluded.repo_license,
	root_sha256 = excluded.root_sha256,
	updated_at = CASE WHEN b.content_hash = excluded.content_hash THEN b.updated_at
	                  ELSE excluded.updated_at END,
	content_hash = excluded.content_hash`

// UpsertBundle writes one parsed bundle.
//
// The bundle's id and indexed_at never change; updated_at moves only when
// the indexed content (content hash) changes; repository signals are always
// refreshed; a hidden bundle that is written again is visible again. An
// upsert that would change nothing writes nothing. Visibility follows
// DESIGN.md: low for example and fixture paths; among exact duplicates (same
// RootSHA256) the earliest indexed is live and the others are low.
func (s *Store) UpsertBundle(ctx context.Context, in BundleInput) (UpsertResult, error) {
	r := newBundleRow(in)
	id := r.in.ID
	if id == "" || r.in.RootSHA256 == "" {
		return UpsertResult{}, fmt.Errorf("store: upsert bundle %q: id and root hash are required", id)
	}
	res := UpsertResult{ID: id}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		res = UpsertResult{ID: id}
		old, err := lockAndRead(ctx, tx, id)
		if err != nil {
			return err
		}
		if old != nil && old.contentHash == r.contentHash && old.visibility != wire.VisibilityHidden &&
			old.rootSHA256 == r.in.RootSHA256 && old.sig.equal(r.sig) {
			res.Visibility = old.visibility
			return nil // nothing to write
		}
		res.Created = old == nil
		res.Changed = old == nil || old.contentHash != r.contentHash
		groups := []string{r.in.RootSHA256}
		if old != nil && old.rootSHA256 != r.in.RootSHA256 {
			groups = append(groups, old.rootSHA256)
		}
		if err := lockGroups(ctx, tx, groups); err != nil {
			return err
		}
		c := r.in.Card
		if _, err := tx.Exec(ctx, upsertSQL, id, r.in.Low, c.Name, c.Tagline, c.Description,
			c.OKFVersion, c.Concepts, r.conceptList, c.Type, r.in.IndexURL, r.in.PageURL,
			r.in.Source.Origin, r.in.Source.Via, r.in.Source.URL, r.in.Source.Host, r.repo,
			r.in.Source.Dir, r.in.Source.Path, r.ident, r.sig.Stars, r.sig.Forks, r.sig.PushedAt,
			r.sig.State, r.sig.Language, r.sig.License, r.in.RootSHA256, r.contentHash,
			s.clock()); err != nil {
			return err
		}
		if err := reconcile(ctx, tx, groups); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT visibility FROM bundles WHERE id = $1`, id).Scan(&res.Visibility)
	})
	if err != nil {
		return UpsertResult{}, fmt.Errorf("store: upsert bundle %s: %w", id, err)
	}
	return res, nil
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
