package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// MaxBatch is the most bundles UpsertBundles takes at once; callers cut
// longer lists into batches of it.
const MaxBatch = 1000

// UpsertBundles writes parsed bundles in one transaction, with the rules of
// UpsertBundle for each (ids, timestamps, signals, hidden bundles,
// duplicates; a bundle that would not change is not written), and returns
// one result per input, in order. An id given twice is written once, as
// its last input says. The statistics summary is kept once per batch.
//
// Locks: the bundles' locks in ascending key order (at most one for
// UpsertBundle), then the groups' locks in ascending key order, then rows
// (visibility.go): batches and single writers wait for each other but do
// not deadlock.
func (s *Store) UpsertBundles(ctx context.Context, ins []BundleInput) ([]UpsertResult, error) {
	if len(ins) > MaxBatch {
		return nil, fmt.Errorf("store: upsert bundles: %d bundles, at most %d a batch", len(ins), MaxBatch)
	}
	rows, last, ids, err := upsertRows(ins)
	if err != nil {
		return nil, err
	}
	var out []UpsertResult
	wrote := false
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		out = make([]UpsertResult, len(ins))
		wrote = false
		if err := lockKeys(ctx, tx, lockClassBundle, ids); err != nil {
			return err
		}
		old, err := readStored(ctx, tx, ids)
		if err != nil {
			return err
		}
		var write []bundleRow
		var groups []string
		for _, id := range ids {
			r, o := rows[last[id]], old[id]
			if o != nil && o.contentHash == r.contentHash && o.visibility != wire.VisibilityHidden &&
				o.rootSHA256 == r.in.RootSHA256 && o.sig.equal(r.sig) && o.analysis == analysisVersion {
				continue // nothing to write
			}
			write = append(write, r)
			groups = append(groups, r.in.RootSHA256)
			if o != nil && o.rootSHA256 != r.in.RootSHA256 {
				groups = append(groups, o.rootSHA256)
			}
		}
		eachRow(len(write), func(i int) { write[i] = write[i].analysed() })
		vis := map[string]wire.Visibility{}
		for id, o := range old {
			vis[id] = o.visibility
		}
		if len(write) > 0 {
			if err := writeBundles(ctx, tx, write, groups, vis, s.clock()); err != nil {
				return err
			}
			wrote = true
		}
		for i := range ins {
			id := rows[i].in.ID
			r, o := rows[last[id]], old[id]
			out[i] = UpsertResult{ID: id, Visibility: vis[id], Created: o == nil,
				Changed: o == nil || o.contentHash != r.contentHash}
		}
		return nil
	})
	if err != nil {
		if len(ins) == 1 {
			return nil, fmt.Errorf("store: upsert bundle %s: %w", ins[0].ID, err)
		}
		return nil, fmt.Errorf("store: upsert %d bundles: %w", len(ins), err)
	}
	if wrote {
		s.flushPendingLists()
	}
	return out, nil
}

// readStored reads what writers compare of the bundles ids, whose locks the
// caller holds; a bundle that does not exist is absent from the map.
func readStored(ctx context.Context, tx pgx.Tx, ids []string) (map[string]*stored, error) {
	rows, err := tx.Query(ctx, `SELECT id, content_hash, root_sha256, visibility,
			repo_stars, repo_forks, repo_pushed_at, repo_state, repo_language, repo_license, analysis
		FROM bundles WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]*stored{}
	var id string
	var st stored
	_, err = pgx.ForEachRow(rows, []any{&id, &st.contentHash, &st.rootSHA256, &st.visibility,
		&st.sig.Stars, &st.sig.Forks, &st.sig.PushedAt, &st.sig.State, &st.sig.Language, &st.sig.License,
		&st.analysis}, func() error {
		c := st
		if c.sig.PushedAt != nil {
			t := c.sig.PushedAt.UTC()
			c.sig.PushedAt = &t
		}
		out[id] = &c
		return nil
	})
	return out, err
}

// liveNames are the names and repository names (as the code host spells
// them, without the owner) of the written rows that are live: whose words
// suggest_words keeps.
func liveNames(write []bundleRow, vis map[string]wire.Visibility) []string {
	var names []string
	for _, r := range write {
		if vis[r.in.ID] != wire.VisibilityLive {
			continue
		}
		names = append(names, r.in.Name)
		if r.in.Source.Repo != nil {
			if _, name, ok := strings.Cut(*r.in.Source.Repo, "/"); ok {
				names = append(names, name)
			}
		}
	}
	return names
}

// readVisibility adds the visibility of the bundles ids to vis.
func readVisibility(ctx context.Context, tx pgx.Tx, ids []string, vis map[string]wire.Visibility) error {
	rows, err := tx.Query(ctx, `SELECT id, visibility FROM bundles WHERE id = ANY($1)`, ids)
	if err != nil {
		return err
	}
	var id string
	var v wire.Visibility
	_, err = pgx.ForEachRow(rows, []any{&id, &v}, func() error {
		vis[id] = v
		return nil
	})
	return err
}

// lockKeys takes the advisory locks of class for keys, in ascending key
// order.
func lockKeys(ctx context.Context, tx pgx.Tx, class int32, keys []string) error {
	ks := make([]int32, 0, len(keys))
	for _, k := range keys {
		ks = append(ks, lockKey(k))
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	// The sorted subquery feeds the aggregate row by row, so the locks are
	// taken in key order.
	_, err := tx.Exec(ctx, `SELECT count(pg_advisory_xact_lock($1, k))
		FROM (SELECT k FROM unnest($2::int4[]) AS k ORDER BY k) AS s`, class, ks)
	return err
}

// StaleRepos returns the repositories of keep (lowercase owner/repo to the
// ids a writer just found there) that hold other bundles not hidden: those
// HideRepoBundlesExcept has work in. One read for a whole batch, so that an
// import that hides nothing pays no transaction for it.
func (s *Store) StaleRepos(ctx context.Context, keep map[string][]string) ([]string, error) {
	var repos, ids []string
	for repo, kept := range keep {
		repos = append(repos, repo)
		ids = append(ids, kept...)
	}
	rows, err := s.write.Query(ctx, `SELECT DISTINCT b.repo FROM bundles AS b
		WHERE b.repo = ANY($1) AND b.visibility <> 'hidden'
		AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) AS k(id) WHERE k.id = b.id)`, repos, ids)
	if err == nil {
		repos, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil {
		return nil, fmt.Errorf("store: stale repos: %w", err)
	}
	return repos, nil
}

// upsertRows are the rows of a batch's inputs, checked; last maps an id to
// the index of its last input, which is the one written, and ids are the
// batch's ids in their first order.
func upsertRows(ins []BundleInput) (rows []bundleRow, last map[string]int, ids []string, err error) {
	rows = make([]bundleRow, len(ins))
	eachRow(len(ins), func(i int) { rows[i] = newBundleRow(ins[i]) })
	last = map[string]int{}
	for i := range ins {
		if err := checkInput(rows[i].in); err != nil {
			return nil, nil, nil, err
		}
		id := rows[i].in.ID
		if id == "" || rows[i].in.RootSHA256 == "" {
			return nil, nil, nil, fmt.Errorf("store: upsert bundle %q: id and root hash are required", id)
		}
		if _, seen := last[id]; !seen {
			ids = append(ids, id)
		}
		last[id] = i
	}
	return rows, last, ids, nil
}

// writeBundles writes the rows that changed, in groups' locks: the rows,
// their groups' reconciliation, the visibility they end with (into vis),
// their names' words for suggestions, and their look-alikes.
func writeBundles(ctx context.Context, tx pgx.Tx, write []bundleRow, groups []string, vis map[string]wire.Visibility, now *time.Time) error {
	if err := lockGroups(ctx, tx, groups); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, upsertSQL, upsertArgs(write, now)...); err != nil {
		return err
	}
	if err := reconcile(ctx, tx, groups); err != nil {
		return err
	}
	written := make([]string, len(write))
	for i, r := range write {
		written[i] = r.in.ID
	}
	if err := readVisibility(ctx, tx, written, vis); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, addSuggestWordsSQL, dictionaryWords(liveNames(write, vis))); err != nil {
		return err
	}
	if err := markLookAlikes(ctx, tx, write, vis); err != nil {
		return err
	}
	return nil
}
