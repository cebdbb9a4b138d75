package main

import (
	"context"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/store"
)

// Writing the parsed bundles of an import, one job at a time.

// rootAt is where a bundle of a job's batch came from:
// reads[read].Roots[root].
type rootAt struct{ read, root int }

// writeJobs writes each job's batch, then hides the bundles that its
// completed repositories no longer hold. After an error it cancels the
// import and drains the jobs.
func writeJobs(ctx context.Context, cancel func(), st *store.Store, jobs <-chan importJob, sum *importSummary, out *meter) error {
	var err error
	for job := range jobs {
		if err == nil {
			if err = writeJob(ctx, st, job, sum, out); err != nil {
				cancel()
			}
		}
	}
	return err
}

// writeJob writes a job's batch, hides what its repositories no longer
// hold, and prints each repository's line.
func writeJob(ctx context.Context, st *store.Store, job importJob, sum *importSummary, out *meter) error {
	if len(job.batch) > 0 {
		res, refused, err := st.UpsertIsolated(ctx, job.batch)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		isRefused := map[int]bool{}
		for _, ref := range refused {
			isRefused[ref.Index] = true
			read := &job.reads[job.at[ref.Index].read]
			v := &read.Roots[job.at[ref.Index].root]
			*v = store.RootVerdict{Path: v.Path, NotBundle: indexer.NotBundleWriteRefused, Detail: indexer.RefusalDetail(ref)}
			out.printf("  %s %s: not imported: %s (%s)\n", read.Repo, v.Path, v.Detail, ref.Reason)
			sum.Failed++
			if l := job.lines[job.at[ref.Index].read]; l != nil {
				l.failed++
			}
		}
		for i, r := range res {
			if isRefused[i] {
				continue
			}
			sum.Bundles++
			l := job.lines[job.at[i].read]
			if l == nil {
				l = &repoLine{}
			}
			switch {
			case r.Created:
				sum.Created++
				l.created++
			case r.Changed:
				sum.Updated++
				l.updated++
			default:
				sum.Unchanged++
				l.unchanged++
			}
		}
	}
	if len(job.reads) == 0 {
		return nil
	}
	lineOf := map[string]*repoLine{}
	for i, read := range job.reads {
		if job.lines[i] != nil {
			lineOf[read.Repo] = job.lines[i]
		}
	}
	if err := st.RecordRepoReads(ctx, job.reads, time.Now()); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	stale, err := st.StaleRepos(ctx, job.keep)
	if err != nil {
		return err
	}
	for _, repo := range stale {
		hidden, err := st.HideRepoBundlesExcept(ctx, repo, job.keep[repo])
		if err != nil {
			return err
		}
		sum.Hidden += hidden
		if l := lineOf[repo]; l != nil {
			l.hidden += hidden
		}
	}
	for _, l := range job.lines {
		if l != nil {
			out.printf("%s\n", l)
		}
	}
	return nil
}
