package worker_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// site is a local TLS server standing in for a domain: it serves files
// from a map that tests change, and can fail a path transiently.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string]string // path -> body; absent paths are 404
	fail  map[string]int    // path -> 503 answers left before it is served
}

func newSite(t *testing.T) *site {
	s := &site{files: map[string]string{}, fail: map[string]int{}}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.fail[r.URL.Path] > 0 {
			s.fail[r.URL.Path]--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		body, ok := s.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = body
}

func (s *site) failTimes(path string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[path] = n
}

// host is the site's host (127.0.0.1:port), as pings record it.
func (s *site) host() string {
	u, _ := url.Parse(s.URL)
	return u.Host
}

// verifyHarness runs the worker's River client against a fresh database,
// with the guarded client trusting the site's certificate and allowing
// loopback (the test settings).
type verifyHarness struct {
	t      *testing.T
	st     *store.Store
	client *river.Client[pgx.Tx]
	events <-chan *river.Event
	site   *site
	clock  *clocktest.Clock
}

func newVerifyHarness(t *testing.T, ctx context.Context) *verifyHarness {
	h := &verifyHarness{t: t, site: newSite(t), clock: clocktest.New(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))}
	st, err := store.Open(ctx, store.Config{URL: storetest.NewDatabase(t), Now: h.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	h.st = st
	roots := x509.NewCertPool()
	roots.AddCert(h.site.Certificate())
	h.client, err = worker.NewClient(worker.Options{
		Store:  st,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Fetch:  safefetch.Options{AllowLoopback: true, RootCAs: roots, Timeout: 5 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	events, unsubscribe := h.client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	t.Cleanup(unsubscribe)
	h.events = events
	if err := h.client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.client.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return h
}

// ping accepts a submission as the API does (rows and job in one
// transaction) and waits until its verify_ping job completes, through any
// retries; it returns the accepted URLs.
func (h *verifyHarness) ping(ctx context.Context, key, keyPath string, paths ...string) []store.PingURL {
	h.t.Helper()
	var urls []string
	for _, p := range paths {
		urls = append(urls, h.site.URL+p)
	}
	accepted, err := h.st.AcceptPing(ctx, h.site.host(), key, urls, func(ctx context.Context, tx pgx.Tx, us []store.PingURL) error {
		_, err := h.client.InsertTx(ctx, tx, jobs.VerifyPingArgs{
			Host: h.site.host(), Key: key, KeyLocation: h.site.URL + keyPath, URLs: us,
		}, nil)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	for {
		select {
		case ev := <-h.events:
			if ev.Job.Kind != (jobs.VerifyPingArgs{}).Kind() {
				continue
			}
			if ev.Kind == river.EventKindJobCompleted {
				return accepted
			}
			if ev.Job.State == rivertype.JobStateDiscarded {
				h.t.Fatalf("verify_ping failed for good: %v", ev.Job.Errors)
			}
		case <-ctx.Done():
			h.t.Fatal("verify_ping never completed")
		}
	}
}

// statuses maps the submitted URLs of the site to their newest status.
func (h *verifyHarness) statuses(ctx context.Context) map[string]wire.PingStatus {
	h.t.Helper()
	page, err := h.st.PingStatuses(ctx, h.site.host(), store.MaxPingStatus, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	list := page.Items
	out := map[string]wire.PingStatus{}
	for i := len(list) - 1; i >= 0; i-- { // newest wins
		out[list[i].URL] = list[i]
	}
	return out
}

const key = "0123456789abcdef-key"

const rootV1 = "---\nokf_version: \"0.2\"\ntitle: Site Guide\ndescription: A guide served by a domain\n---\n\n- [Setup](setup.md) - how to set up\n"
const rootV2 = "---\nokf_version: \"0.2\"\ntitle: Site Guide\ndescription: A guide served by a domain\n---\n\n- [Setup](setup.md) - how to set up\n- [Usage](usage.md)\n"

// A valid ping publishes its bundle as a domain bundle and records the
// other URLs' rejections; a re-ping re-reads and moves updated_at only when
// the content changed.
func TestVerifyPingPublishes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newVerifyHarness(t, ctx)
	h.site.set("/"+key+".txt", "  "+key+"\n")
	h.site.set("/guide/index.md", rootV1)
	h.site.set("/notes.md", "# Just notes\n\nNo frontmatter here.\n")

	h.ping(ctx, key, "/"+key+".txt", "/guide/index.md", "/notes.md", "/gone/index.md")
	got := h.statuses(ctx)
	guideURL := h.site.URL + "/guide/index.md"
	pub := got[guideURL]
	if pub.State != wire.PingPublished || pub.BundleID == nil || pub.CheckedAt == nil {
		t.Fatalf("guide: %+v", pub)
	}
	wantID := source.Site{URL: guideURL}.ID()
	if *pub.BundleID != wantID {
		t.Errorf("bundle id %s, want %s", *pub.BundleID, wantID)
	}
	for path, reason := range map[string]string{"/notes.md": worker.ReasonNotABundle, "/gone/index.md": "fetch_failed:http_status"} {
		if s := got[h.site.URL+path]; s.State != wire.PingRejected || s.Reason == nil || *s.Reason != reason || s.BundleID != nil {
			t.Errorf("%s: %+v, want rejected %s", path, s, reason)
		}
	}
	b, err := h.st.GetBundle(ctx, wantID)
	if err != nil {
		t.Fatal(err)
	}
	if b.Source.Origin != source.OriginDomain || b.Source.Via != source.ViaIndexNow || b.Repo != nil || b.Source.Repo != nil ||
		b.PageURL != guideURL || b.IndexURL != guideURL || b.Name != "Site Guide" || b.Concepts != 1 ||
		b.Source.Host != "127.0.0.1" || b.Source.Dir != "guide" {
		t.Errorf("card %+v", b)
	}
	first := b.UpdatedAt

	// The key matched, so it is proven on the host: unproven keys filling
	// their part of the day's cap (the first submission, made before the
	// key was proven, took 3 of it) leave it room.
	noop := func(context.Context, pgx.Tx, []store.PingURL) error { return nil }
	many := func(from, n int) []string {
		var out []string
		for i := from; i < from+n; i++ {
			out = append(out, fmt.Sprintf("%s/p%d.md", h.site.URL, i))
		}
		return out
	}
	if _, err := h.st.AcceptPing(ctx, h.site.host(), "made-up-key-0", many(0, 197), noop); err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.AcceptPing(ctx, h.site.host(), "made-up-key-1", many(197, 1), noop); err == nil {
		t.Fatal("the unproven part of the cap is not full")
	}
	if _, err := h.st.AcceptPing(ctx, h.site.host(), key, many(200, 100), noop); err != nil {
		t.Errorf("the proven key after 200 unproven URLs: %v", err)
	}

	// Re-ping, same content: re-read, published again, updated_at unchanged.
	h.clock.Advance(time.Hour)
	h.ping(ctx, key, "/"+key+".txt", "/guide/index.md")
	if b, _ = h.st.GetBundle(ctx, wantID); !b.UpdatedAt.Equal(first.Time) {
		t.Errorf("unchanged re-ping moved updated_at %v -> %v", first, b.UpdatedAt)
	}
	if s := h.statuses(ctx)[guideURL]; s.State != wire.PingPublished {
		t.Errorf("re-ping %+v", s)
	}

	// Re-ping, changed content: updated_at moves, indexed_at does not.
	h.clock.Advance(time.Hour)
	h.site.set("/guide/index.md", rootV2)
	h.ping(ctx, key, "/"+key+".txt", "/guide/index.md")
	after, _ := h.st.GetBundle(ctx, wantID)
	if !after.UpdatedAt.Equal(h.clock.Now()) || !after.IndexedAt.Equal(b.IndexedAt.Time) || after.Concepts != 2 {
		t.Errorf("changed re-ping: updated %v indexed %v concepts %d", after.UpdatedAt, after.IndexedAt, after.Concepts)
	}
}

// A wrong key, a key file that cannot be fetched, and a key file at
// another location of the host.
func TestVerifyPingKeyFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newVerifyHarness(t, ctx)
	h.site.set("/guide/index.md", rootV1)
	h.site.set("/"+key+".txt", "another-key-entirely")

	h.ping(ctx, key, "/"+key+".txt", "/guide/index.md")
	guideURL := h.site.URL + "/guide/index.md"
	if s := h.statuses(ctx)[guideURL]; s.State != wire.PingRejected || *s.Reason != worker.ReasonKeyMismatch {
		t.Errorf("wrong key: %+v", s)
	}
	if _, err := h.st.GetBundle(ctx, source.Site{URL: guideURL}.ID()); err != store.ErrNotFound {
		t.Errorf("a wrong key published the bundle: %v", err)
	}

	h.ping(ctx, key, "/missing.txt", "/guide/index.md")
	if s := h.statuses(ctx)[guideURL]; s.State != wire.PingRejected || *s.Reason != "key_unreachable:http_status" {
		t.Errorf("missing key file: %+v", s)
	}

	h.site.set("/keys/okf.txt", key)
	h.ping(ctx, key, "/keys/okf.txt", "/guide/index.md")
	if s := h.statuses(ctx)[guideURL]; s.State != wire.PingPublished {
		t.Errorf("key at keyLocation: %+v", s)
	}

	// The key stops matching: the next ping is rejected and the bundle
	// already published from that URL is hidden; a matching key brings it back.
	h.site.set("/keys/okf.txt", "rotated-away-0000")
	h.ping(ctx, key, "/keys/okf.txt", "/guide/index.md")
	if _, err := h.st.GetBundle(ctx, source.Site{URL: guideURL}.ID()); err != store.ErrNotFound {
		t.Errorf("a bundle whose key stopped matching still answers: %v", err)
	}
	h.site.set("/keys/okf.txt", key)
	h.ping(ctx, key, "/keys/okf.txt", "/guide/index.md")
	if _, err := h.st.GetBundle(ctx, source.Site{URL: guideURL}.ID()); err != nil {
		t.Errorf("re-verified bundle: %v", err)
	}
}

// Roots may be larger than the key file's 1 MiB cap, up to the 2 MiB the
// parser indexes; beyond that they are refused as too large.
func TestVerifyPingLargeRoots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newVerifyHarness(t, ctx)
	h.site.set("/"+key+".txt", key)
	var big strings.Builder
	big.WriteString("---\nokf_version: \"0.2\"\ntitle: Big\n---\n")
	for i := 0; big.Len() < 1536<<10; i++ {
		fmt.Fprintf(&big, "- [Entry %d](e%d.md) - %s\n", i, i, strings.Repeat("words ", 20))
	}
	h.site.set("/big/index.md", big.String())
	h.site.set("/huge/index.md", big.String()+strings.Repeat("x", 1<<20))
	h.ping(ctx, key, "/"+key+".txt", "/big/index.md", "/huge/index.md")
	got := h.statuses(ctx)
	if s := got[h.site.URL+"/big/index.md"]; s.State != wire.PingPublished {
		t.Errorf("1.5 MiB root: %+v", s)
	}
	if s := got[h.site.URL+"/huge/index.md"]; s.State != wire.PingRejected || *s.Reason != "fetch_failed:body_too_large" {
		t.Errorf("2.5 MiB root: %+v", s)
	}
}

// A transient failure (503) of a root makes River retry the job; the retry
// publishes the root, and the URL decided on the first attempt is not redone.
func TestVerifyPingRetriesTransientFailures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newVerifyHarness(t, ctx)
	h.site.set("/"+key+".txt", key)
	h.site.set("/guide/index.md", rootV1)
	h.site.failTimes("/guide/index.md", 1)

	h.ping(ctx, key, "/"+key+".txt", "/guide/index.md", "/gone.md")
	got := h.statuses(ctx)
	if s := got[h.site.URL+"/guide/index.md"]; s.State != wire.PingPublished {
		t.Errorf("after retry: %+v", s)
	}
	if s := got[h.site.URL+"/gone.md"]; s.State != wire.PingRejected || *s.Reason != "fetch_failed:http_status" {
		t.Errorf("404: %+v", s)
	}
}
