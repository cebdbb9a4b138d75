package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// What the sweep saw in each repository at its latest read (migration
// 0014_owner_status), for the owner status (GET /api/status), the card
// page's broken-link line and the index-wide figure of the operator
// metrics.

// RootVerdict is what a read found at one index.md of a repository.
type RootVerdict struct {
	Path string
	// BundleID is set when the file is a bundle root; NotBundle (an
	// okf.Reason* word, or "binary") and Detail say why it is not one.
	BundleID  string
	NotBundle string
	Detail    string
	// Warnings are indexer.Warnings: what okfctl lint says of the root.
	Warnings []string
	// LinksTotal and LinksMissing count the distinct concept links inside
	// the repository and those naming no file of the tree read;
	// LinksChecked is false when the tree was not fully listed.
	LinksTotal   int
	LinksMissing int
	LinksChecked bool
}

// RepoRead is one read of a repository's tree: every index.md it saw.
type RepoRead struct {
	Repo   string // owner/name; lowercased here
	Commit string // the head commit read
	Roots  []RootVerdict
}

// recordReadsSQL replaces the rows of the repositories $1 with those of
// their latest read, in one statement: the read's rows are upserted and
// every other row of those repositories deleted (the two sets are disjoint,
// so the data-modifying CTE and the insert never touch the same row).
const recordReadsSQL = `
WITH new AS (
	SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
		$8::int[], $9::int[], $10::bool[], $11::text[])
		AS t(repo, path, bundle_id, not_bundle, detail, warnings, links_total, links_missing, links_checked, commit_oid)
), gone AS (
	DELETE FROM sweep_roots AS s WHERE s.repo = ANY($1)
	AND NOT EXISTS (SELECT 1 FROM new WHERE new.repo = s.repo AND new.path = s.path)
)
INSERT INTO sweep_roots AS s (repo, path, bundle_id, not_bundle, detail, warnings,
	links_total, links_missing, links_checked, commit_oid, read_at)
SELECT repo, path, NULLIF(bundle_id, ''), NULLIF(not_bundle, ''), detail, warnings::jsonb,
	links_total, links_missing, links_checked, commit_oid, $12 FROM new
ON CONFLICT (repo, path) DO UPDATE SET bundle_id = excluded.bundle_id, not_bundle = excluded.not_bundle,
	detail = excluded.detail, warnings = excluded.warnings, links_total = excluded.links_total,
	links_missing = excluded.links_missing, links_checked = excluded.links_checked,
	commit_oid = excluded.commit_oid, read_at = excluded.read_at`

// MaxRootPathBytes is the longest path RecordRepoReads records: the
// (repo, path) key of sweep_roots must fit a B-tree row, and the indexer
// indexes no root at a longer path.
const MaxRootPathBytes = 1024

// RecordRepoReads replaces what is known of each repository of reads with
// that read, at at: one statement for all of them. A repository read with
// no index.md keeps no row; a root whose path is longer than
// MaxRootPathBytes is left out.
func (s *Store) RecordRepoReads(ctx context.Context, reads []RepoRead, at time.Time) error {
	if len(reads) == 0 {
		return nil
	}
	var (
		repos                                    = make([]string, 0, len(reads))
		repo, path, ids, reasons, details, warns []string
		commits                                  []string
		total, missing                           []int32
		checked                                  []bool
	)
	for _, r := range reads {
		name := strings.ToLower(r.Repo)
		repos = append(repos, name)
		for _, v := range r.Roots {
			if len(v.Path) > MaxRootPathBytes {
				continue // not indexed either (indexer.MaxPathBytes); a key past a B-tree row
			}
			w := v.Warnings
			if w == nil {
				w = []string{}
			}
			wj, err := json.Marshal(w)
			if err != nil {
				return fmt.Errorf("store: record reads: %w", err)
			}
			if v.BundleID == "" && v.NotBundle == "" {
				return fmt.Errorf("store: record reads: %s:%s is neither a bundle nor has a reason", name, v.Path)
			}
			repo, path, ids, reasons = append(repo, name), append(path, v.Path), append(ids, v.BundleID), append(reasons, v.NotBundle)
			details, warns, commits = append(details, v.Detail), append(warns, string(wj)), append(commits, r.Commit)
			total, missing, checked = append(total, int32(v.LinksTotal)), append(missing, int32(v.LinksMissing)), append(checked, v.LinksChecked)
		}
	}
	// One statement; inTx retries it should two writers of the same
	// repository (a forced read during a round, say) deadlock.
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, recordReadsSQL, repos, repo, path, ids, reasons, details, warns,
			total, missing, checked, commits, at)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: record reads: %w", err)
	}
	return nil
}

// RootStatus is one index.md of a repository as the owner status shows it.
type RootStatus struct {
	Path string
	// Seen is true for a file of the latest read; false for a bundle of the
	// repository that read did not see (a file that left the tree, or a
	// bundle indexed before reads were recorded).
	Seen     bool
	BundleID string // "" when not a bundle
	// Visibility is the bundle's (live, low, hidden); "" when not a bundle.
	Visibility               string
	PathLow                  bool   // low because of an example or fixture path
	DupOf                    string // a low duplicate's live copy; "" otherwise
	NotBundle                string
	Detail                   string
	Warnings                 []string
	LinksTotal, LinksMissing int
	LinksChecked             bool
	Commit                   string
	ReadAt                   *time.Time
}

// RepoStatus is what the index knows of one repository.
type RepoStatus struct {
	Repo string
	// Known is false when the repository is neither a sweep candidate nor
	// holds a bundle.
	Known     bool
	Candidate *Candidate // nil when the sweep has no row for it (imported)
	Roots     []RootStatus
	Next      string // the path after which the next page starts; "" on the last
}

// MaxOwnerStatus is the most roots one page of a repository's status holds.
const MaxOwnerStatus = 100

// repoRootsSQL lists the roots of $1 after path $2, $3 of them: the rows of
// the latest read joined to their bundles, then the repository's bundles
// that read did not see (a file the read found no longer a bundle shows once,
// as the read saw it). A low bundle off an example path is a duplicate:
// dup_of is the live bundle with the same root.
const repoRootsSQL = `
SELECT * FROM (
	SELECT r.path, true AS seen, coalesce(r.bundle_id, ''), coalesce(b.visibility, ''), coalesce(b.path_low, false),
		r.not_bundle, r.detail, r.warnings, r.links_total, r.links_missing, r.links_checked, r.commit_oid, r.read_at,
		b.root_sha256
	FROM sweep_roots r LEFT JOIN bundles b ON b.id = r.bundle_id
	WHERE r.repo = $1 AND r.path > $2
	UNION ALL
	SELECT b.path, false, b.id, b.visibility, b.path_low, NULL, '', '[]'::jsonb, 0, 0, false, '', NULL, b.root_sha256
	FROM bundles b
	WHERE b.repo = $1 AND b.path COLLATE "C" > $2
	AND NOT EXISTS (SELECT 1 FROM sweep_roots r WHERE r.repo = $1 AND (r.bundle_id = b.id OR r.path = b.path COLLATE "C"))
) AS roots
ORDER BY path COLLATE "C", seen DESC
LIMIT $3`

// RepoStatus reads what the index knows of repo (lowercase owner/name): its
// sweep candidate and a page of its roots, in path order, after the path
// after ("" for the first page), at most limit (1..MaxOwnerStatus).
func (s *Store) RepoStatus(ctx context.Context, repo, after string, limit int) (RepoStatus, error) {
	repo = strings.ToLower(repo)
	out := RepoStatus{Repo: repo, Roots: []RootStatus{}}
	limit = max(1, min(limit, MaxOwnerStatus))
	rows, err := s.read.Query(ctx, `SELECT `+candidateColumns+` FROM sweep_candidates WHERE repo = $1`, repo)
	if err != nil {
		return out, fmt.Errorf("store: repo status: %w", err)
	}
	cands, err := scanCandidates(rows)
	if err != nil {
		return out, fmt.Errorf("store: repo status: %w", err)
	}
	if len(cands) == 1 {
		out.Candidate, out.Known = &cands[0], true
	}
	rows, err = s.read.Query(ctx, repoRootsSQL, repo, after, limit+1)
	if err != nil {
		return out, fmt.Errorf("store: repo status: %w", err)
	}
	dupRoots := map[string][]int{}
	var reason *string
	var warnings []byte
	var root *string
	var r RootStatus
	if _, err := pgx.ForEachRow(rows, []any{&r.Path, &r.Seen, &r.BundleID, &r.Visibility, &r.PathLow,
		&reason, &r.Detail, &warnings, &r.LinksTotal, &r.LinksMissing, &r.LinksChecked, &r.Commit, &r.ReadAt, &root},
		func() error {
			x := r
			x.NotBundle = ""
			if reason != nil {
				x.NotBundle = *reason
			}
			if err := json.Unmarshal(warnings, &x.Warnings); err != nil {
				return err
			}
			if x.Visibility == "low" && !x.PathLow && root != nil {
				dupRoots[*root] = append(dupRoots[*root], len(out.Roots))
			}
			out.Roots = append(out.Roots, x)
			return nil
		}); err != nil {
		return out, fmt.Errorf("store: repo status: %w", err)
	}
	if len(out.Roots) > limit {
		out.Roots = out.Roots[:limit]
		out.Next = out.Roots[limit-1].Path
	}
	if len(out.Roots) > 0 {
		out.Known = true
	}
	if len(dupRoots) > 0 {
		if err := s.duplicatesOf(ctx, dupRoots, out.Roots); err != nil {
			return out, err
		}
	}
	return out, nil
}

// duplicatesOf fills DupOf of the low duplicates: the live bundle of each
// root hash (the earliest indexed, as the duplicate rule keeps it).
func (s *Store) duplicatesOf(ctx context.Context, byRoot map[string][]int, roots []RootStatus) error {
	hashes := make([]string, 0, len(byRoot))
	for h := range byRoot {
		hashes = append(hashes, h)
	}
	rows, err := s.read.Query(ctx, `SELECT DISTINCT ON (root_sha256) root_sha256, id FROM bundles
		WHERE root_sha256 = ANY($1) AND visibility = 'live' ORDER BY root_sha256, indexed_at, id`, hashes)
	if err != nil {
		return fmt.Errorf("store: repo status: duplicates: %w", err)
	}
	var h, id string
	_, err = pgx.ForEachRow(rows, []any{&h, &id}, func() error {
		for _, i := range byRoot[h] {
			roots[i].DupOf = id
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: repo status: duplicates: %w", err)
	}
	return nil
}

// LinkCounts are the concept links of one bundle, as its latest read
// counted them.
type LinkCounts struct {
	Total, Missing int
}

// BundleLinks returns the link counts of bundle id, and false when no read
// checked its links (a domain bundle, an import, a truncated tree).
func (s *Store) BundleLinks(ctx context.Context, id string) (LinkCounts, bool, error) {
	var c LinkCounts
	err := s.read.QueryRow(ctx, `SELECT links_total, links_missing FROM sweep_roots
		WHERE bundle_id = $1 AND links_checked ORDER BY read_at DESC LIMIT 1`, id).Scan(&c.Total, &c.Missing)
	if err == pgx.ErrNoRows {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("store: bundle links: %w", err)
	}
	return c, true, nil
}

// LinkTotals is the index-wide figure: over the non-hidden bundles whose
// links a read checked, how many concept links and how many to missing
// files, as the latest RecountLinks counted them.
type LinkTotals struct {
	Bundles, Total, Missing int64
	CountedAt               *time.Time // nil before the first recount
}

// RecountLinks recounts the index-wide link figure (the hourly recount_stats
// job calls it): one pass over sweep_roots joined to bundles.
func (s *Store) RecountLinks(ctx context.Context) error {
	_, err := s.write.Exec(ctx, `UPDATE concept_link_totals SET (bundles, links_total, links_missing, counted_at) =
		(SELECT count(*), coalesce(sum(r.links_total), 0), coalesce(sum(r.links_missing), 0), now()
		 FROM sweep_roots r JOIN bundles b ON b.id = r.bundle_id
		 WHERE r.links_checked AND b.visibility <> 'hidden')`)
	if err != nil {
		return fmt.Errorf("store: recount links: %w", err)
	}
	return nil
}

// LinkTotals reads the figure RecountLinks keeps: one row.
func (s *Store) LinkTotals(ctx context.Context) (LinkTotals, error) {
	var t LinkTotals
	err := s.write.QueryRow(ctx, `SELECT bundles, links_total, links_missing, counted_at FROM concept_link_totals`).
		Scan(&t.Bundles, &t.Total, &t.Missing, &t.CountedAt)
	if err != nil {
		return t, fmt.Errorf("store: link totals: %w", err)
	}
	return t, nil
}
