package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// SweepReposWorker reads one batch of repositories and writes their bundles.
type SweepReposWorker struct {
	river.WorkerDefaults[jobs.SweepReposArgs]
	Store  *store.Store
	GitHub *github.Client
	Logger *slog.Logger
	Now    func() time.Time
	// JobTimeout, when set, replaces the job's default timeout.
	JobTimeout time.Duration
}

// Timeout bounds one batch (SweepReposTimeout): its limit waits are at
// most a minute each (github.Config.MaxWait); longer ones snooze the job.
func (w *SweepReposWorker) Timeout(*river.Job[jobs.SweepReposArgs]) time.Duration {
	return cmp.Or(w.JobTimeout, SweepReposTimeout)
}

// Work sweeps one batch: signals of every repository; for those whose head
// commit moved since their last sweep, the tree and every index.md. Bundles
// are upserted, vanished ones hidden; a repository that no longer resolves
// has all its bundles hidden and is marked gone. Each repository is marked
// swept only after its writes, so a killed job redoes at most its batch.
func (w *SweepReposWorker) Work(ctx context.Context, job *river.Job[jobs.SweepReposArgs]) error {
	refs := make([]github.RepoRef, 0, len(job.Args.Repos))
	for _, s := range job.Args.Repos {
		r, err := github.ParseRepoRef(s)
		if err != nil {
			return river.JobCancel(err)
		}
		refs = append(refs, r)
	}
	err := sweepRepos(ctx, sweepBatch{Store: w.Store, GitHub: w.GitHub, Logger: w.Logger, Now: w.Now,
		Refs: refs, Force: job.Args.Force})
	return sweepResult(err)
}

// sweepBatch is one read of a list of repositories: by a sweep_repos job,
// or by enrichment (SignalsOnly).
type sweepBatch struct {
	Store  *store.Store
	GitHub *github.Client
	Logger *slog.Logger
	Now    func() time.Time
	Refs   []github.RepoRef
	// Force reads the trees even of repositories whose head commit has not
	// moved since their last sweep.
	Force bool
	// SignalsOnly refreshes the repository signals alone and reads no tree
	// (enrichment); the repositories are marked enriched, not swept.
	SignalsOnly bool
}

// sweepRepos reads b.Refs: their signals, and the trees and roots of those
// whose head commit moved (or all, with b.Force), unless b.SignalsOnly.
func sweepRepos(ctx context.Context, b sweepBatch) error {
	st := b.Store
	repos, err := b.GitHub.ReadRepositories(ctx, b.Refs)
	if err != nil {
		return err
	}
	names := make([]string, len(b.Refs))
	for i, r := range b.Refs {
		names[i] = r.FullName()
	}
	cands, err := st.GetCandidates(ctx, names)
	if err != nil {
		return err
	}
	now := b.Now()
	var changed []github.Repository
	var enriched []string
	for i, r := range repos {
		asked := names[i]
		if r.Gone || r.Private {
			if err := markGone(ctx, st, asked, now); err != nil {
				return err
			}
			continue
		}
		if r.FullName() != asked {
			// Renamed (GitHub follows renames): the bundles move to the new
			// name and the old identity's bundles are hidden.
			if err := markGone(ctx, st, asked, now); err != nil {
				return err
			}
			if _, err := st.AddCandidates(ctx, store.DiscoveredBySeed, toRefs([]github.RepoRef{r.RepoRef})); err != nil {
				return err
			}
		}
		badSignals := repoInfo(r).Check()
		if badSignals != nil {
			b.Logger.Warn("sweep: repository signals out of range; its bundles are not written", "repo", r.RepoRef, "err", badSignals)
		}
		unchanged := !b.Force && r.HeadOID != "" && cands[r.FullName()].SweptOID == r.HeadOID
		if b.SignalsOnly || unchanged && badSignals == nil {
			if badSignals == nil {
				if _, err := st.SetRepoSignal(ctx, r.FullName(), *repoInfo(r).Signal(now)); err != nil {
					return err
				}
			}
			if b.SignalsOnly {
				enriched = append(enriched, r.FullName())
			} else if err := st.MarkSwept(ctx, store.CandidateRef{Owner: r.Owner, Name: r.Name}, r.HeadOID, now); err != nil {
				return err
			}
			continue
		}
		changed = append(changed, r)
	}
	if len(enriched) > 0 {
		if err := st.MarkEnriched(ctx, enriched, now); err != nil {
			return err
		}
	}
	if len(changed) == 0 {
		return nil
	}
	return readChanged(ctx, st, b.GitHub, b.Logger, now, changed)
}

// readChanged lists the trees of repos, reads every index.md and writes the
// bundles.
func readChanged(ctx context.Context, st *store.Store, gh *github.Client, log *slog.Logger, now time.Time, repos []github.Repository) error {
	trees, files, blobs, err := listRoots(ctx, gh, log, repos)
	if err != nil {
		return err
	}
	byRepo := map[string][]int{}
	for i, f := range files {
		byRepo[f.Repo.FullName()] = append(byRepo[f.Repo.FullName()], i)
	}
	// One batched write for the page's bundles (store.UpsertIsolated: a
	// bundle the database refuses is recorded and the rest written), then
	// each repository's hiding and progress.
	var ins []store.BundleInput
	var at []rootAt // where each of ins is in reads
	var reads []store.RepoRead
	keep := map[string][]string{} // lowercase owner/repo to the ids found there
	failed := map[string]bool{}   // repositories whose signals are out of range
	for i, r := range repos {
		if trees[i].Gone {
			continue
		}
		info := repoInfo(r)
		if info.Check() != nil {
			failed[r.FullName()] = true
		}
		info.Files = treeFiles(trees[i])
		read := store.RepoRead{Repo: r.FullName(), Commit: r.HeadOID, Roots: []store.RootVerdict{}}
		kept := []string{}
		for _, fi := range byRepo[r.FullName()] {
			b := blobs[fi]
			if b.Missing {
				continue // gone between the listing and the read
			}
			if b.Binary {
				read.Roots = append(read.Roots, store.RootVerdict{Path: files[fi].Path, NotBundle: indexer.NotBundleBinary,
					Detail: "GitHub reads the file as binary, not text"})
				continue
			}
			text := []byte(b.Text)
			if b.Truncated {
				text = readFull(ctx, gh, log, files[fi], text)
			}
			loc := source.Repo{Owner: r.Owner, Name: r.Name, Branch: r.Branch, Path: files[fi].Path}
			p, err := indexer.ParseRepo(text, loc, info, now)
			read.Roots = append(read.Roots, indexer.Verdict(files[fi].Path, p, err, info.Files))
			if errors.Is(err, okf.ErrNotBundle) {
				continue
			}
			if err != nil {
				log.Warn("sweep: root not indexed", "repo", r.RepoRef, "path", files[fi].Path, "err", err)
				continue
			}
			ins = append(ins, p.Input)
			at = append(at, rootAt{read: len(reads), root: len(read.Roots) - 1})
			kept = append(kept, p.Input.ID)
		}
		if !failed[r.FullName()] { // a failed repository keeps what it had
			keep[strings.ToLower(r.FullName())] = kept
		}
		reads = append(reads, read)
	}
	_, refused, err := st.UpsertIsolated(ctx, ins)
	if err != nil {
		return err
	}
	for _, ref := range refused {
		v := &reads[at[ref.Index].read].Roots[at[ref.Index].root]
		log.Warn("sweep: bundle refused by the database; the rest of the batch is written",
			"repo", reads[at[ref.Index].read].Repo, "path", v.Path, "reason", ref.Reason, "err", ref.Err)
		*v = refusedVerdict(v.Path, ref)
	}
	if err := st.RecordRepoReads(ctx, reads, now); err != nil {
		return err
	}
	return settleRepos(ctx, st, repos, trees, keep, failed, now)
}

// rootAt is where a bundle of a batch came from: reads[read].Roots[root].
type rootAt struct{ read, root int }

// refusedVerdict is what the owner status says of a root the database
// refused to store: not indexed, and why. A version indexed before stays.
func refusedVerdict(path string, ref *store.Refusal) store.RootVerdict {
	return store.RootVerdict{Path: path, NotBundle: indexer.NotBundleWriteRefused,
		Detail: indexer.RefusalDetail(ref)}
}

// readFull reads a root whose GraphQL text GitHub truncated through the
// REST contents API; when that fails it indexes the truncated text.
func readFull(ctx context.Context, gh *github.Client, log *slog.Logger, f github.FileRef, truncated []byte) []byte {
	full, err := gh.ReadRaw(ctx, f)
	if err != nil || len(full) < len(truncated) {
		log.Warn("sweep: root truncated by GitHub and not readable in full; indexing the truncated text",
			"repo", f.Repo, "path", f.Path, "bytes", len(truncated), "err", err)
		return truncated
	}
	return full
}

// markGone hides every bundle of repo, sets its state to gone and stops
// sweeping it.
func markGone(ctx context.Context, st *store.Store, repo string, now time.Time) error {
	if _, err := st.HideGoneRepo(ctx, repo); err != nil {
		return err
	}
	gone := source.StateGone
	if _, err := st.SetRepoSignal(ctx, repo, wire.RepoSignal{State: &gone}); err != nil {
		return err
	}
	return st.MarkGone(ctx, repo, now)
}

// repoInfo is what the indexer takes of a repository.
func repoInfo(r github.Repository) indexer.RepoInfo {
	return indexer.RepoInfo{Stars: r.Stars, Forks: r.Forks, PushedAt: r.PushedAt,
		Archived: r.Archived, Language: r.Language, License: r.License}
}

// sweepResult is what a sweep job answers River: a rate limit GitHub kept
// answering snoozes the job until it lifts, the end of a slice snoozes it
// to continue at once (neither is a failure, and neither spends an
// attempt); other errors pass through.
func sweepResult(err error) error {
	var le *github.LimitError
	if errors.As(err, &le) {
		return river.JobSnooze(max(le.Wait, time.Minute))
	}
	if errors.Is(err, errSliceEnd) {
		return river.JobSnooze(0)
	}
	if err != nil {
		return fmt.Errorf("worker: sweep: %w", err)
	}
	return nil
}

// listRoots lists the root index.md files of repos' trees and reads them.
func listRoots(ctx context.Context, gh *github.Client, log *slog.Logger, repos []github.Repository) ([]github.Tree, []github.FileRef, []github.Blob, error) {
	refs := make([]github.RepoRef, len(repos))
	for i, r := range repos {
		refs[i] = r.RepoRef
	}
	trees, err := gh.FindIndexFiles(ctx, refs)
	if err != nil {
		return nil, nil, nil, err
	}
	var files []github.FileRef
	for i, t := range trees {
		if t.Truncated {
			log.Warn("sweep: tree listing truncated", "repo", refs[i], "entries", t.Entries)
		}
		for _, p := range t.Paths {
			files = append(files, github.FileRef{Repo: refs[i], Path: p})
		}
	}
	blobs, err := gh.ReadBlobs(ctx, files)
	if err != nil {
		return nil, nil, nil, err
	}
	return trees, files, blobs, nil
}

// settleRepos ends the reading of repos: a gone repository is marked so;
// a read one hides the bundles it no longer holds (unless its signals
// failed: it keeps what it had) and is marked swept at its head commit.
func settleRepos(ctx context.Context, st *store.Store, repos []github.Repository, trees []github.Tree, keep map[string][]string,
	failed map[string]bool, now time.Time) error {
	stale := map[string]bool{}
	if len(keep) > 0 {
		staleRepos, err := st.StaleRepos(ctx, keep)
		if err != nil {
			return err
		}
		for _, r := range staleRepos {
			stale[r] = true
		}
	}
	for i, r := range repos {
		if trees[i].Gone {
			if err := markGone(ctx, st, r.FullName(), now); err != nil {
				return err
			}
			continue
		}
		if repo := strings.ToLower(r.FullName()); stale[repo] {
			if _, err := st.HideRepoBundlesExcept(ctx, repo, keep[repo]); err != nil {
				return err
			}
		}
		oid := r.HeadOID
		if failed[r.FullName()] {
			oid = "" // read again in full next round, not by this job
		}
		if err := st.MarkSwept(ctx, store.CandidateRef{Owner: r.Owner, Name: r.Name}, oid, now); err != nil {
			return err
		}
	}
	return nil
}
