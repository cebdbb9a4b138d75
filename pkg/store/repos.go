package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/wire"
)

// SetRepoSignal refreshes the repository signal columns of every bundle of
// repo (lowercase owner/repo), for the enricher that re-reads a repository
// without re-reading its bundles, and returns how many bundles changed.
// Signals out of range (cardsize.CheckSignal) are a *Refusal, and nothing
// is written. Visibility is not touched: hiding the bundles of a gone repository is
// HideRepoBundlesExcept(ctx, repo, nil).
func (s *Store) SetRepoSignal(ctx context.Context, repo string, sig wire.RepoSignal) (int, error) {
	repo = strings.ToLower(repo)
	if err := cardsize.CheckSignal(int64(sig.Stars), int64(sig.Forks)); err != nil {
		return 0, &Refusal{ID: repo, Reason: RefusedInvalidSignals, Err: err}
	}
	sig, _ = cardsize.FitSignal(*cleanSignal(&sig))
	cols := signalColumns(&sig)
	var n int
	err := s.inTx(ctx, func(txn pgx.Tx) error {
		// Lock in id order, as concurrent refreshes of one repository would
		// otherwise deadlock; rows already current are not rewritten.
		tag, err := txn.Exec(ctx, `
			UPDATE bundles AS b SET repo_stars = $2, repo_forks = $3, repo_pushed_at = $4,
				repo_state = $5, repo_language = $6, repo_license = $7
			FROM (SELECT id FROM bundles WHERE repo = $1 ORDER BY id FOR UPDATE) AS l
			WHERE b.id = l.id AND (b.repo_stars, b.repo_forks, b.repo_pushed_at, b.repo_state,
				b.repo_language, b.repo_license) IS DISTINCT FROM
				($2::int, $3::int, $4::timestamptz, $5::text, $6::text, $7::text)`,
			repo, cols.Stars, cols.Forks, cols.PushedAt, cols.State, cols.Language, cols.License)
		if err != nil {
			return err
		}
		n = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: set repo signal of %s: %w", repo, err)
	}
	return n, nil
}
