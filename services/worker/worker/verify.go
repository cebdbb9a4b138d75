package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
)

// Reasons a submitted URL is rejected, recorded in the pings table and shown
// by GET /api/ping/status. A fetch failure is followed by ":" and the
// safefetch reason (key_unreachable:http_status, fetch_failed:timeout).
const (
	ReasonKeyMismatch    = "key_mismatch"    // the key file does not hold the key
	ReasonKeyUnreachable = "key_unreachable" // the key file could not be fetched
	ReasonNotABundle     = "not_a_bundle"    // the root has no okf_version frontmatter
	ReasonFetchFailed    = "fetch_failed"    // the root could not be fetched
	ReasonInvalidBundle  = "invalid_bundle"  // the root could not be parsed for another cause
	// ReasonWriteRefused: the root is a bundle the database cannot store
	// (":" and a store.Refused* word follow); retrying cannot succeed.
	ReasonWriteRefused = "write_refused"
)

// Reasons a pending URL shows while its verification is retried, beside
// the fetch failures above (recorded by NotePingRetry; store.PingRetry*
// covers the failures the worker could not record).
const (
	ReasonAttemptTimeout = "attempt_timeout" // the attempt ran out of its time (Timeout)
	ReasonWorkerStopped  = "worker_stopped"  // the worker was shut down mid-attempt
)

// VerifyPingWorker runs jobs.VerifyPingArgs: it fetches the key file through
// the guarded client and, when the key matches, fetches, parses and publishes
// each submitted root as a domain bundle.
//
// Permanent failures (a 404, a blocked address, a key mismatch, a root that
// is not a bundle) are recorded as rejections and the job completes.
// Transient ones (timeouts, 5xx, connection failures) make the job return an
// error, so River retries it with backoff; a retry redoes only the URLs
// still pending, and at the last attempt a transient failure is recorded as
// a rejection too. Each attempt records its job id on the URLs it takes,
// and a failed attempt its reason on the URLs left pending, which
// GET /api/ping/status shows with River's time of the next attempt.
type VerifyPingWorker struct {
	river.WorkerDefaults[jobs.VerifyPingArgs]
	Store *store.Store
	// Fetch reads key files (safefetch's 1 MiB cap); RootFetch reads bundle
	// roots, which may be up to okf.MaxRootBytes. RootFetch defaults to Fetch.
	Fetch     *safefetch.Client
	RootFetch *safefetch.Client
	Logger    *slog.Logger
	// JobTimeout bounds one attempt; VerifyPingTimeout when 0. A submission
	// of 100 slow roots needs minutes, more than River's default of one;
	// an attempt cut short keeps what it decided, and the retry goes on.
	JobTimeout time.Duration
}

// rootFetchers is how many roots of one submission are fetched at once:
// at safefetch's 15-second worst case per fetch, the key file and 100
// roots take at most 15 s + 10 × 15 s, within VerifyPingTimeout. It is
// also as many connections as one submission opens to its host.
const rootFetchers = 10

// Timeout is the time one attempt may take.
func (w *VerifyPingWorker) Timeout(*river.Job[jobs.VerifyPingArgs]) time.Duration {
	if w.JobTimeout > 0 {
		return w.JobTimeout
	}
	return VerifyPingTimeout
}

// Work verifies one submission.
func (w *VerifyPingWorker) Work(ctx context.Context, job *river.Job[jobs.VerifyPingArgs]) error {
	args := job.Args
	last := job.Attempt >= job.MaxAttempts
	ids := make([]int64, len(args.URLs))
	for i, u := range args.URLs {
		ids[i] = u.ID
	}
	pending, err := w.Store.TakePendingPings(ctx, ids, job.ID)
	if err != nil {
		return err
	}
	var todo []store.PingURL
	for _, u := range args.URLs {
		if pending[u.ID] {
			todo = append(todo, u)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	a := attempt{w: w, n: job.Attempt, last: last}
	err = a.verify(ctx, args, todo)
	if err != nil {
		a.noteRetry(ctx, todo, err)
	}
	return err
}

// attempt is one attempt of a verify_ping job.
type attempt struct {
	w    *VerifyPingWorker
	n    int  // the job's attempt number
	last bool // no retry follows: transient failures are rejections
}

// verify checks the key file and publishes the roots of todo.
func (a attempt) verify(ctx context.Context, args jobs.VerifyPingArgs, todo []store.PingURL) error {
	resp, err := a.w.Fetch.Get(ctx, args.KeyLocation)
	if err != nil {
		reason, retry := failure(ctx, err, a.last)
		if retry {
			a.note(ctx, todo, ReasonKeyUnreachable+":"+reason)
			return fmt.Errorf("worker: verify ping %s: key file: %w", args.Host, err)
		}
		return a.w.rejectAndHide(ctx, todo, ReasonKeyUnreachable+":"+reason)
	}
	if strings.TrimSpace(string(resp.Body)) != args.Key {
		return a.w.rejectAndHide(ctx, todo, ReasonKeyMismatch)
	}
	if err := a.w.Store.RecordProvenKey(ctx, args.Host, args.Key); err != nil {
		return err
	}
	return a.publishAll(ctx, args.Host, todo)
}

// noteRetry records why the attempt failed on the URLs of todo still
// pending that have no reason of this attempt yet: its time ran out, the
// worker is stopping, or another failure (the database, say).
func (a attempt) noteRetry(ctx context.Context, todo []store.PingURL, err error) {
	reason := store.PingRetryWorkerError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		reason = ReasonAttemptTimeout
	case errors.Is(err, context.Canceled):
		reason = ReasonWorkerStopped
	}
	a.note(ctx, todo, reason)
}

// note records reason as the last error of urls for this attempt. It
// writes even when the job's context is done (a timed-out attempt); a
// failure to write is logged, the retry goes on regardless.
func (a attempt) note(ctx context.Context, urls []store.PingURL, reason string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	ids := make([]int64, len(urls))
	for i, u := range urls {
		ids[i] = u.ID
	}
	if err := a.w.Store.NotePingRetry(ctx, ids, a.n, reason); err != nil {
		a.w.log().Warn("verify ping: retry reason not recorded", "reason", reason, "err", err)
	}
}

// publishAll publishes the roots of urls, rootFetchers at a time. Each
// outcome is recorded as soon as it is known, so an attempt cut short
// keeps what it decided. It answers the first failure of the store or of
// the job's context (which stops the other fetches), else an error naming
// a root whose fetch failed transiently (River retries the job), else nil.
func (a attempt) publishAll(ctx context.Context, host string, urls []store.PingURL) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu              sync.Mutex
		hard, transient error
		wg              sync.WaitGroup
	)
	slots := make(chan struct{}, rootFetchers)
	for _, u := range urls {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			done, err := a.publish(ctx, u)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil && hard == nil:
				hard = err // the store failed, or the job is being stopped
				cancel()
			case err == nil && !done:
				transient = fmt.Errorf("worker: verify ping %s: %s: fetch failed transiently", host, u.URL)
			}
		})
	}
	wg.Wait()
	if hard != nil {
		return hard
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return transient
}

// publish fetches, parses and publishes one root, and records the outcome.
// It reports done=false, with the failure noted as the URL's last error,
// when the fetch failed transiently and a later attempt may succeed.
func (a attempt) publish(ctx context.Context, u store.PingURL) (done bool, err error) {
	w := a.w
	fetch := w.RootFetch
	if fetch == nil {
		fetch = w.Fetch
	}
	resp, err := fetch.Get(ctx, u.URL)
	if err != nil {
		reason, retry := failure(ctx, err, a.last)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if retry {
			w.log().Info("verify ping: transient fetch failure", "url", u.URL, "reason", reason)
			a.note(ctx, []store.PingURL{u}, ReasonFetchFailed+":"+reason)
			return false, nil
		}
		return true, w.Store.RejectPing(ctx, u.ID, ReasonFetchFailed+":"+reason)
	}
	in, err := indexer.FromSite(resp.Body, source.Site{URL: u.URL})
	if errors.Is(err, okf.ErrNotBundle) {
		return true, w.Store.RejectPing(ctx, u.ID, ReasonNotABundle)
	}
	if err != nil {
		return true, w.Store.RejectPing(ctx, u.ID, ReasonInvalidBundle)
	}
	res, err := w.Store.UpsertBundle(ctx, in)
	if ref := store.AsRefusal(err); ref != nil {
		w.log().Warn("verify ping: bundle refused by the database", "url", u.URL, "reason", ref.Reason, "err", err)
		return true, w.Store.RejectPing(ctx, u.ID, ReasonWriteRefused+":"+ref.Reason)
	}
	if err != nil {
		return false, err
	}
	w.log().Info("verify ping: published", "url", u.URL, "bundle", res.ID, "created", res.Created, "changed", res.Changed)
	return true, w.Store.PublishPing(ctx, u.ID, res.ID)
}

// rejectAndHide records reason for every URL and hides the domain bundles
// already published from them: the host no longer proves it controls them
// (DESIGN.md: a domain bundle whose key stopped matching is hidden).
func (w *VerifyPingWorker) rejectAndHide(ctx context.Context, urls []store.PingURL, reason string) error {
	for _, u := range urls {
		if err := w.Store.RejectPing(ctx, u.ID, reason); err != nil {
			return err
		}
		err := w.Store.HideBundle(ctx, source.Site{URL: u.URL}.ID())
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

func (w *VerifyPingWorker) log() *slog.Logger {
	if w.Logger == nil {
		return slog.Default()
	}
	return w.Logger
}

// failure classifies a fetch error: its reason word, and whether the job
// should be retried rather than the failure recorded. Transient failures
// are retried until the last attempt; a canceled job (shutdown) always is.
func failure(ctx context.Context, err error, last bool) (reason string, retry bool) {
	if ctx.Err() != nil {
		return safefetch.ReasonCanceled, true
	}
	var fe *safefetch.Error
	if !errors.As(err, &fe) {
		return "error", !last
	}
	if fe.Reason == safefetch.ReasonCanceled {
		return fe.Reason, true
	}
	return fe.Reason, !fe.Permanent && !last
}
