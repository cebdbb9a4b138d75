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
	analysis    int // the analysisVersion that wrote its search columns
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

// upsertSQL writes bundles, one per element of the arrays $1..$27, $29,
// $30, $32 (cut, comma-separated) and $33, with the writers' clock $28 and
// analysisVersion $31 (one
// statement whatever their number, so the statistics triggers run once per
// batch). A new bundle starts live, or low when its path says so or an
// earlier non-hidden copy of its root exists; an existing one keeps
// indexed_at, and keeps updated_at unless its content hash changed.
// Reconciliation of the duplicate groups follows in the same transaction.
// The bundles of one batch are indexed a microsecond apart in their order,
// so that "the earliest indexed" of duplicates written together is the
// first written, as it is when they are written one by one.
const upsertSQL = `
INSERT INTO bundles AS b (id, visibility, path_low, name, tagline, description, okf_version,
	concepts, concept_list, type, index_url, page_url, origin, via, source_url, host, repo,
	dir, path, ident, repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language,
	repo_license, root_sha256, content_hash, indexed_at, updated_at, lang, search_extra, analysis,
	cut, look_alike_key)
SELECT u.id,
	CASE WHEN u.path_low THEN 'low'
	     WHEN EXISTS (SELECT 1 FROM bundles o WHERE o.root_sha256 = u.root_sha256 AND o.id <> u.id
	                  AND o.visibility <> 'hidden' AND NOT o.path_low) THEN 'low'
	     ELSE 'live' END,
	u.path_low, u.name, u.tagline, u.description, u.okf_version, u.concepts, u.concept_list::jsonb,
	u.type, u.index_url, u.page_url, u.origin, u.via, u.source_url, u.host, u.repo, u.dir, u.path,
	u.ident, u.repo_stars, u.repo_forks, u.repo_pushed_at, u.repo_state, u.repo_language,
	u.repo_license, u.root_sha256, u.content_hash,
	coalesce($28::timestamptz, now()) + (u.ord - 1) * interval '1 microsecond',
	coalesce($28::timestamptz, now()) + (u.ord - 1) * interval '1 microsecond',
	u.lang::regconfig, u.search_extra, $31::smallint, string_to_array(u.cut, ','), u.look_alike_key
FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::text[],
	$7::integer[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
	$14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::integer[],
	$21::integer[], $22::timestamptz[], $23::text[], $24::text[], $25::text[], $26::text[],
	$27::text[], $29::text[], $30::text[], $32::text[], $33::text[]) WITH ORDINALITY
	AS u(id, path_low, name, tagline, description, okf_version, concepts, concept_list, type,
	     index_url, page_url, origin, via, source_url, host, repo, dir, path, ident, repo_stars,
	     repo_forks, repo_pushed_at, repo_state, repo_language, repo_license, root_sha256,
	     content_hash, lang, search_extra, cut, look_alike_key, ord)
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
	root_sha256 = excluded.root_sha256, lang = excluded.lang,
	search_extra = excluded.search_extra, analysis = excluded.analysis,
	cut = excluded.cut, look_alike_key = excluded.look_alike_key,
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
