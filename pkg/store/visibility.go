package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// Exact duplicates. Bundles that share a root_sha256 form a group; among the
// group's members that are neither hidden nor low by path, the earliest
// (indexed_at, id) is live and the others are low. Every writer that can
// change a group's membership or a member's visibility takes the group's
// advisory lock, then reconciles the group in the same transaction, so the
// rule holds under concurrent workers and survives re-sweeps.
//
// Lock order, which keeps writers free of deadlocks: bundle locks
// (lockClassBundle) first, in ascending key order (one but for a batch of
// UpsertBundles), then group locks (lockClassGroup) in ascending key order,
// then row locks. A transaction Postgres still aborts as a deadlock
// victim (a hash collision between keys, say) is retried by inTx.
const (
	lockClassBundle int32 = 0x6f6b01
	lockClassGroup  int32 = 0x6f6b02
)

// lockKey maps a bundle id or a root hash to an advisory lock key.
func lockKey(s string) int32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int32(h.Sum32())
}

// lockGroups takes the advisory locks of the duplicate groups of roots, in
// ascending key order.
func lockGroups(ctx context.Context, tx pgx.Tx, roots []string) error {
	return lockKeys(ctx, tx, lockClassGroup, roots)
}

// reconcileSQL sets, in each group of $1, the earliest eligible member live
// and the other eligible members low. It touches only rows that change.
const reconcileSQL = `
UPDATE bundles AS b SET visibility = r.want
FROM (
	SELECT id, CASE WHEN row_number() OVER (PARTITION BY root_sha256 ORDER BY indexed_at, id) = 1
	                THEN 'live' ELSE 'low' END AS want
	FROM bundles
	WHERE root_sha256 = ANY($1) AND visibility <> 'hidden' AND NOT path_low
) AS r
WHERE b.id = r.id AND b.visibility <> r.want`

// reconcile applies the duplicate rule to the groups of roots, whose locks
// the caller holds.
func reconcile(ctx context.Context, tx pgx.Tx, roots []string) error {
	_, err := tx.Exec(ctx, reconcileSQL, roots)
	return err
}

// maxHideRounds bounds the passes of HideRepoBundlesExcept; a pass ends short
// only when a concurrent writer moved a bundle to another duplicate group.
const maxHideRounds = 8

// HideRepoBundlesExcept hides the bundles of repo (lowercase owner/repo) whose
// ids are not in keepIDs, and returns how many it hid: their roots left the
// repository's tree (the change feed's reason file_gone). Copies elsewhere
// of a bundle it hides are promoted as the duplicate rule says. A bundle
// hidden here becomes visible again when it is upserted.
func (s *Store) HideRepoBundlesExcept(ctx context.Context, repo string, keepIDs []string) (int, error) {
	return s.hideRepo(ctx, repo, keepIDs, wire.RemovedFileGone)
}

// HideGoneRepo hides every bundle of repo, which no longer resolves (the
// change feed's reason repo_gone), and returns how many it hid, as
// HideRepoBundlesExcept does.
func (s *Store) HideGoneRepo(ctx context.Context, repo string) (int, error) {
	return s.hideRepo(ctx, repo, nil, wire.RemovedRepoGone)
}

// hideRepo hides the bundles of repo not in keepIDs, recording why in
// gone_reason (which the change feed's tombstones carry).
func (s *Store) hideRepo(ctx context.Context, repo string, keepIDs []string, reason wire.RemovalReason) (int, error) {
	repo = strings.ToLower(repo)
	if keepIDs == nil {
		keepIDs = []string{}
	}
	var hidden int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		hidden = 0
		for round := 0; round < maxHideRounds; round++ {
			var roots []string
			rows, err := tx.Query(ctx, `SELECT DISTINCT root_sha256 FROM bundles
				WHERE repo = $1 AND visibility <> 'hidden' AND id <> ALL($2)`, repo, keepIDs)
			if err != nil {
				return err
			}
			roots, err = pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			if len(roots) == 0 {
				return nil
			}
			if err := lockGroups(ctx, tx, roots); err != nil {
				return err
			}
			// Only rows still in a locked group: a row a concurrent upsert
			// moved elsewhere is left for the next pass.
			tag, err := tx.Exec(ctx, `UPDATE bundles SET visibility = 'hidden', gone_reason = $4
				WHERE repo = $1 AND visibility <> 'hidden' AND id <> ALL($2)
				AND root_sha256 = ANY($3)`, repo, keepIDs, roots, reason)
			if err != nil {
				return err
			}
			hidden += int(tag.RowsAffected())
			if err := reconcile(ctx, tx, roots); err != nil {
				return err
			}
		}
		return errors.New("bundles kept moving between duplicate groups")
	})
	if err != nil {
		return 0, fmt.Errorf("store: hide bundles of %s: %w", repo, err)
	}
	return hidden, nil
}

// HideBundle hides one bundle: a domain bundle whose key file stopped
// matching (the change feed's reason key_mismatch); ErrNotFound when there
// is none. Hiding a hidden bundle does nothing. The bundle becomes visible
// again when it is upserted.
func (s *Store) HideBundle(ctx context.Context, id string) error {
	return s.withdraw(ctx, id, "hide",
		`UPDATE bundles SET visibility = 'hidden', gone_reason = 'key_mismatch' WHERE id = $1`, true)
}
