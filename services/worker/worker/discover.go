package worker

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// SweepDiscoverWorker runs the discoverers of one round and queues the
// sweep_repos batches. Each search slice's progress is saved after every
// page, so a retried job resumes at the page it stopped; the job works in
// slices of time (SweepSliceTimeout), snoozing to go on where it stopped.
type SweepDiscoverWorker struct {
	river.WorkerDefaults[jobs.SweepDiscoverArgs]
	Store  *store.Store
	GitHub *github.Client
	Config SweepConfig
	Logger *slog.Logger
	Now    func() time.Time
	// JobTimeout, when set, replaces the job's default timeout.
	JobTimeout time.Duration
}

// Timeout bounds one slice of a round (SweepSliceTimeout); a round takes
// as many slices as it needs (code search alone is paced to ten requests a
// minute).
func (w *SweepDiscoverWorker) Timeout(*river.Job[jobs.SweepDiscoverArgs]) time.Duration {
	return cmp.Or(w.JobTimeout, SweepSliceTimeout)
}

// Work runs one slice of a discovery round: the searches from where the
// last slice stopped (the saved windows) until they end or the slice
// deadline passes, then, once every search is done, queues the batches.
func (w *SweepDiscoverWorker) Work(ctx context.Context, job *river.Job[jobs.SweepDiscoverArgs]) error {
	round, err := time.Parse(time.RFC3339, job.Args.Round)
	if err != nil {
		return fmt.Errorf("worker: sweep_discover: round %q: %w", job.Args.Round, err)
	}
	if _, err := w.Store.AddCandidates(ctx, store.DiscoveredBySeed, toRefs(w.Config.Seeds)); err != nil {
		return err
	}
	d := discoverer{w: w, round: job.Args.Round, until: round, deadline: sliceDeadline(w.Config.Slice, w.Timeout(job))}
	for _, q := range w.Config.Queries {
		if err := d.repoSearch(ctx, q); err != nil {
			return sweepResult(err)
		}
	}
	for _, q := range w.Config.CodeQueries {
		if err := d.codeSearch(ctx, q); err != nil {
			return sweepResult(err)
		}
	}
	n, err := EnqueueDue(ctx, w.Store, river.ClientFromContext[pgx.Tx](ctx), round, job.Args.Round, w.Config.BatchSize)
	if err != nil {
		return err
	}
	w.Logger.Info("sweep: discovery round done", "round", job.Args.Round, "batches", n)
	return nil
}

// EnqueueDue queues sweep_repos batches of batchSize for every candidate not
// swept since before, and returns how many batches it queued.
func EnqueueDue(ctx context.Context, st *store.Store, client *river.Client[pgx.Tx], before time.Time, round string, batchSize int) (int, error) {
	due, err := st.DueCandidates(ctx, before, 1<<30)
	if err != nil {
		return 0, err
	}
	var params []river.InsertManyParams
	for start := 0; start < len(due); start += batchSize {
		var names []string
		for _, c := range due[start:min(start+batchSize, len(due))] {
			names = append(names, c.Owner+"/"+c.Name)
		}
		params = append(params, river.InsertManyParams{Args: jobs.SweepReposArgs{Repos: names, Round: round}})
	}
	for start := 0; start < len(params); start += 500 {
		if _, err := client.InsertMany(ctx, params[start:min(start+500, len(params))]); err != nil {
			return 0, fmt.Errorf("worker: queue sweep batches: %w", err)
		}
	}
	return len(params), nil
}

// discoverer runs the searches of one slice of a round.
type discoverer struct {
	w        *SweepDiscoverWorker
	round    string
	until    time.Time // the end of the date windows
	deadline time.Time // no page is asked for after it (errSliceEnd)
	pages    int       // asked for in this run: at least one is
}

// splitMark is the cursor of a slice that matched too many results and was
// split in two.
const splitMark = "split"

// repoSearch runs query over created: date windows, halving any window that
// matches more than GitHub returns.
func (d *discoverer) repoSearch(ctx context.Context, query string) error {
	type window struct{ from, to time.Time }
	day := 24 * time.Hour
	stack := []window{{d.w.Config.Since, d.until.Truncate(day)}}
	for len(stack) > 0 {
		win := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		q := fmt.Sprintf("%s created:%s..%s", query, win.from.Format(time.DateOnly), win.to.Format(time.DateOnly))
		days := int(win.to.Sub(win.from) / day)
		half := win.from.Add(time.Duration(days/2) * day)
		children := []window{{half.Add(day), win.to}, {win.from, half}}
		split, err := d.slice(ctx, store.DiscoveredByRepoSearch, q, days > 0, func(ctx context.Context, cursor string) (page, error) {
			p, err := d.w.GitHub.SearchRepositories(ctx, q, cursor)
			return page{repos: p.Repos, total: p.Total, next: p.EndCursor, more: p.HasNext}, err
		})
		if err != nil {
			return err
		}
		if split {
			stack = append(stack, children...)
		}
	}
	return nil
}

// codeSearch runs query over size: ranges, halving any range that matches
// more than GitHub returns.
func (d *discoverer) codeSearch(ctx context.Context, query string) error {
	type span struct{ lo, hi int }
	stack := []span{{0, MaxCodeSize}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		q := fmt.Sprintf("%s size:%d..%d", query, s.lo, s.hi)
		mid := s.lo + (s.hi-s.lo)/2
		split, err := d.slice(ctx, store.DiscoveredByCodeSearch, q, s.hi > s.lo, func(ctx context.Context, cursor string) (page, error) {
			n := 1
			if cursor != "" {
				n, _ = strconv.Atoi(cursor)
			}
			p, err := d.w.GitHub.SearchCode(ctx, q, n)
			var repos []github.RepoRef
			for _, h := range p.Hits {
				repos = append(repos, h.Repo)
			}
			return page{repos: repos, total: p.Total, next: strconv.Itoa(n + 1), more: !p.Done}, err
		})
		if err != nil {
			return err
		}
		if split {
			stack = append(stack, span{mid + 1, s.hi}, span{s.lo, mid})
		}
	}
	return nil
}

// page is one page of either discoverer.
type page struct {
	repos []github.RepoRef
	total int
	next  string
	more  bool
}

// slice runs one search slice to its end, resuming from saved progress,
// and reports whether the slice must be split instead (more matches than
// GitHub returns, and divisible). Past the deadline, once the run has
// asked for a page, it asks for no more and answers errSliceEnd; what it
// saved is where the next run resumes.
func (d *discoverer) slice(ctx context.Context, by, q string, divisible bool, fetch func(context.Context, string) (page, error)) (bool, error) {
	st := d.w.Store
	win, err := st.Window(ctx, by, q)
	if err != nil {
		return false, err
	}
	if win.Round != d.round {
		win = store.SweepWindow{Discoverer: by, Query: q, Round: d.round}
	}
	if win.DoneAt != nil {
		return win.Cursor == splitMark, nil
	}
	for {
		if d.pages > 0 && time.Now().After(d.deadline) {
			return false, errSliceEnd
		}
		d.pages++
		p, err := fetch(ctx, win.Cursor)
		if err != nil {
			return false, err
		}
		if win.Cursor == "" && p.total > github.SearchLimit && divisible {
			now := d.w.Now()
			win.Cursor, win.DoneAt = splitMark, &now
			return true, st.SaveWindow(ctx, win)
		}
		if _, err := st.AddCandidates(ctx, by, toRefs(p.repos)); err != nil {
			return false, err
		}
		win.Found += len(p.repos)
		win.Cursor = p.next
		if !p.more || p.next == "" {
			now := d.w.Now()
			win.DoneAt = &now
		}
		if err := st.SaveWindow(ctx, win); err != nil {
			return false, err
		}
		if win.DoneAt != nil {
			d.w.Logger.Debug("sweep: search slice done", "discoverer", by, "query", q, "found", win.Found, "total", p.total)
			return false, nil
		}
	}
}
