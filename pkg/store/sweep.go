package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// What the GitHub sweep keeps between runs (migration 0003_sweep): the
// candidate repositories and the progress of the discoverers, so that a
// killed worker resumes where it stopped.

// Discoverers, the values of Candidate.DiscoveredBy and SweepWindow.Discoverer.
const (
	DiscoveredBySeed       = "seed"
	DiscoveredByRepoSearch = "repo_search"
	DiscoveredByCodeSearch = "code_search"
)

// CandidateRef names a repository as the code host spells it.
type CandidateRef struct {
	Owner string
	Name  string
}

// Repo is the lowercase "owner/name".
func (r CandidateRef) Repo() string { return strings.ToLower(r.Owner + "/" + r.Name) }

// Candidate is a repository the sweep reads.
type Candidate struct {
	CandidateRef
	Repo         string // lowercase owner/name
	DiscoveredBy []string
	SweptAt      *time.Time
	SweptOID     string // head commit at the last complete read; "" when never read
	EnrichedAt   *time.Time
	Gone         bool
}

const candidateColumns = `repo, owner, name, discovered_by, swept_at, swept_oid, enriched_at, gone`

func scanCandidates(rows pgx.Rows) ([]Candidate, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Candidate, error) {
		var c Candidate
		err := row.Scan(&c.Repo, &c.Owner, &c.Name, &c.DiscoveredBy, &c.SweptAt, &c.SweptOID, &c.EnrichedAt, &c.Gone)
		return c, err
	})
}

// AddCandidates records repositories found by discoverer (a DiscoveredBy*
// value) and returns how many were new. A known repository gains the
// discoverer and is no longer marked gone: the next read checks again.
func (s *Store) AddCandidates(ctx context.Context, discoverer string, refs []CandidateRef) (int, error) {
	if len(refs) == 0 {
		return 0, nil
	}
	repos := make([]string, len(refs))
	owners := make([]string, len(refs))
	names := make([]string, len(refs))
	for i, r := range refs {
		repos[i], owners[i], names[i] = r.Repo(), r.Owner, r.Name
	}
	var n int
	err := s.write.QueryRow(ctx, `
		WITH input AS (
			SELECT DISTINCT ON (repo) repo, owner, name
			FROM unnest($1::text[], $2::text[], $3::text[]) AS t(repo, owner, name)
			ORDER BY repo
		), ins AS (
			INSERT INTO sweep_candidates AS c (repo, owner, name, discovered_by)
			SELECT repo, owner, name, ARRAY[$4::text] FROM input ORDER BY repo
			ON CONFLICT (repo) DO UPDATE SET
				discovered_by = CASE WHEN $4 = ANY(c.discovered_by) THEN c.discovered_by
				                     ELSE c.discovered_by || $4::text END,
				gone = false
			WHERE NOT ($4 = ANY(c.discovered_by)) OR c.gone
			RETURNING (xmax = 0) AS created
		)
		SELECT count(*) FILTER (WHERE created) FROM ins`, repos, owners, names, discoverer).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: add %d candidates from %s: %w", len(refs), discoverer, err)
	}
	return n, nil
}

// DueCandidates returns up to limit repositories not gone and not swept
// since before, the least recently swept first.
func (s *Store) DueCandidates(ctx context.Context, before time.Time, limit int) ([]Candidate, error) {
	rows, err := s.write.Query(ctx, `SELECT `+candidateColumns+` FROM sweep_candidates
		WHERE NOT gone AND (swept_at IS NULL OR swept_at < $1)
		ORDER BY swept_at NULLS FIRST, repo LIMIT $2`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("store: due candidates: %w", err)
	}
	out, err := scanCandidates(rows)
	if err != nil {
		return nil, fmt.Errorf("store: due candidates: %w", err)
	}
	return out, nil
}

// EnrichDue returns up to limit repositories that hold bundles, are not
// gone, and were neither enriched nor swept since before, ordered by repo
// after the given repo (keyset paging; "" starts at the beginning).
func (s *Store) EnrichDue(ctx context.Context, before time.Time, after string, limit int) ([]Candidate, error) {
	rows, err := s.write.Query(ctx, `SELECT `+candidateColumns+` FROM sweep_candidates c
		WHERE NOT gone AND repo > $2
		  AND (enriched_at IS NULL OR enriched_at < $1) AND (swept_at IS NULL OR swept_at < $1)
		  AND EXISTS (SELECT 1 FROM bundles b WHERE b.repo = c.repo)
		ORDER BY repo LIMIT $3`, before, after, limit)
	if err != nil {
		return nil, fmt.Errorf("store: enrich due: %w", err)
	}
	out, err := scanCandidates(rows)
	if err != nil {
		return nil, fmt.Errorf("store: enrich due: %w", err)
	}
	return out, nil
}

// GetCandidates returns the candidates among repos (lowercase owner/name),
// keyed by repo.
func (s *Store) GetCandidates(ctx context.Context, repos []string) (map[string]Candidate, error) {
	rows, err := s.write.Query(ctx, `SELECT `+candidateColumns+` FROM sweep_candidates WHERE repo = ANY($1)`, repos)
	if err != nil {
		return nil, fmt.Errorf("store: get candidates: %w", err)
	}
	list, err := scanCandidates(rows)
	if err != nil {
		return nil, fmt.Errorf("store: get candidates: %w", err)
	}
	out := make(map[string]Candidate, len(list))
	for _, c := range list {
		out[c.Repo] = c
	}
	return out, nil
}

// MarkSwept records a complete read of repo at head commit oid. It adds the
// candidate when unknown (a repository swept by name).
func (s *Store) MarkSwept(ctx context.Context, ref CandidateRef, oid string, at time.Time) error {
	_, err := s.write.Exec(ctx, `
		INSERT INTO sweep_candidates (repo, owner, name, swept_at, swept_oid, enriched_at)
		VALUES ($1, $2, $3, $4, $5, $4)
		ON CONFLICT (repo) DO UPDATE SET owner = excluded.owner, name = excluded.name,
			swept_at = excluded.swept_at, swept_oid = excluded.swept_oid,
			enriched_at = excluded.enriched_at, gone = false`,
		ref.Repo(), ref.Owner, ref.Name, at, oid)
	if err != nil {
		return fmt.Errorf("store: mark %s swept: %w", ref.Repo(), err)
	}
	return nil
}

// MarkEnriched records that the signals of repos were refreshed at at.
func (s *Store) MarkEnriched(ctx context.Context, repos []string, at time.Time) error {
	if _, err := s.write.Exec(ctx, `UPDATE sweep_candidates SET enriched_at = $2 WHERE repo = ANY($1)`, repos, at); err != nil {
		return fmt.Errorf("store: mark enriched: %w", err)
	}
	return nil
}

// MarkGone records that repo no longer resolves: it is not read again
// until a discoverer finds it again. Hiding its bundles is the caller's
// HideRepoBundlesExcept(ctx, repo, nil).
func (s *Store) MarkGone(ctx context.Context, repo string, at time.Time) error {
	repo = strings.ToLower(repo)
	if _, err := s.write.Exec(ctx, `UPDATE sweep_candidates SET gone = true, swept_at = $2, swept_oid = ''
		WHERE repo = $1`, repo, at); err != nil {
		return fmt.Errorf("store: mark %s gone: %w", repo, err)
	}
	return nil
}

// SweepWindow is the progress of one slice of a discoverer's search.
type SweepWindow struct {
	Discoverer string // DiscoveredByRepoSearch or DiscoveredByCodeSearch
	Query      string // the slice's full search string
	Cursor     string // where the next page starts; "" at the first page
	Found      int    // results recorded so far in this round
	Round      string // the discovery round the progress belongs to
	DoneAt     *time.Time
}

// Window returns the progress of a slice; a zero SweepWindow (with the
// discoverer and query filled in) when the slice was never searched.
func (s *Store) Window(ctx context.Context, discoverer, query string) (SweepWindow, error) {
	w := SweepWindow{Discoverer: discoverer, Query: query}
	err := s.write.QueryRow(ctx, `SELECT cursor, found, round, done_at FROM sweep_windows
		WHERE discoverer = $1 AND query = $2`, discoverer, query).Scan(&w.Cursor, &w.Found, &w.Round, &w.DoneAt)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return w, fmt.Errorf("store: sweep window %s %q: %w", discoverer, query, err)
	}
	return w, nil
}

// SaveWindow records the progress of a slice.
func (s *Store) SaveWindow(ctx context.Context, w SweepWindow) error {
	_, err := s.write.Exec(ctx, `
		INSERT INTO sweep_windows (discoverer, query, cursor, found, round, done_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, now())
		ON CONFLICT (discoverer, query) DO UPDATE SET cursor = excluded.cursor,
			found = excluded.found, round = excluded.round, done_at = excluded.done_at,
			updated_at = now()`, w.Discoverer, w.Query, w.Cursor, w.Found, w.Round, w.DoneAt)
	if err != nil {
		return fmt.Errorf("store: save sweep window %s %q: %w", w.Discoverer, w.Query, err)
	}
	return nil
}
