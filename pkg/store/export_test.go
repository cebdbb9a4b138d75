package store

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// BenchRow is one synthetic bundle of the query benchmark, loaded as is:
// the benchmark decides visibility and timestamps itself.
type BenchRow struct {
	In         BundleInput
	Visibility wire.Visibility
	IndexedAt  time.Time
	UpdatedAt  time.Time
}

// CopyBenchRows loads rows with COPY, bypassing the duplicate rule (the
// benchmark sets visibility), through the same column derivation as
// UpsertBundle. The statistics triggers run once per COPY.
func CopyBenchRows(ctx context.Context, s *Store, rows []BenchRow) (int64, error) {
	cols := []string{"id", "visibility", "path_low", "name", "tagline", "description",
		"okf_version", "concepts", "concept_list", "type", "index_url", "page_url", "origin",
		"via", "source_url", "host", "repo", "dir", "path", "ident", "repo_stars", "repo_forks",
		"repo_pushed_at", "repo_state", "repo_language", "repo_license", "root_sha256",
		"content_hash", "indexed_at", "updated_at"}
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i >= len(rows) {
			return nil, nil
		}
		br := rows[i]
		i++
		r := newBundleRow(br.In)
		c := r.in.Card
		return []any{r.in.ID, br.Visibility, r.in.Low, c.Name, c.Tagline, c.Description,
			c.OKFVersion, c.Concepts, r.conceptList, c.Type, r.in.IndexURL, r.in.PageURL,
			r.in.Source.Origin, r.in.Source.Via, r.in.Source.URL, r.in.Source.Host, r.repo,
			r.in.Source.Dir, r.in.Source.Path, r.ident, r.sig.Stars, r.sig.Forks, r.sig.PushedAt,
			r.sig.State, r.sig.Language, r.sig.License, r.in.RootSHA256, r.contentHash,
			br.IndexedAt, br.UpdatedAt}, nil
	})
	return s.write.CopyFrom(ctx, pgx.Identifier{"bundles"}, cols, src)
}

// ExplainSearch returns the EXPLAIN ANALYZE output of the statement of p.
func ExplainSearch(ctx context.Context, s *Store, p SearchParams) (string, error) {
	sql, args, err := searchSQL(p)
	if err != nil || sql == "" {
		return "", err
	}
	rows, err := s.read.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+sql, args...)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return strings.Join(lines, "\n"), err
}

// DeleteBundle removes a bundle; ErrNotFound when there is none. When it was
// the live copy of duplicates, the next copy becomes live. The service never
// deletes a bundle (it hides one whose source went away, so a re-read can
// restore it); the tests use this to start a duplicate group afresh.
func (s *Store) DeleteBundle(ctx context.Context, id string) error {
	return s.withdraw(ctx, id, "delete", `DELETE FROM bundles WHERE id = $1`, false)
}
