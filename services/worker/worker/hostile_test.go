package worker_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// incompressibleText is n characters that no compression shortens: past a
// B-tree row's limit at 1000.
func incompressibleText(n int) string {
	r := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	for range n {
		b.WriteRune(rune(0x4e00 + r.IntN(0x5000)))
	}
	return b.String()
}

// hostileRepos reads testdata/hostile as repositories of the local GitHub,
// their stars and forks from repo.json where GitHub could say them (its
// counts are 32-bit: 2^62 and 1e308 cannot come from it, and import's test
// covers them).
func hostileRepos(t *testing.T) []githubtest.Repo {
	t.Helper()
	src := "../../../testdata/hostile"
	owners, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []githubtest.Repo
	for _, o := range owners {
		if !o.IsDir() {
			continue
		}
		names, _ := os.ReadDir(filepath.Join(src, o.Name()))
		for _, n := range names {
			dir := filepath.Join(src, o.Name(), n.Name())
			r := githubtest.Repo{Owner: o.Name(), Name: n.Name(), Files: map[string][]byte{}, DefaultBranch: "main",
				CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), PushedAt: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
			var meta struct{ Stars, Forks int64 }
			if b, err := os.ReadFile(filepath.Join(dir, "repo.json")); err == nil && json.Unmarshal(b, &meta) == nil &&
				meta.Stars >= -1<<31 && meta.Stars < 1<<31 && meta.Forks >= -1<<31 && meta.Forks < 1<<31 {
				r.Stars, r.Forks = int(meta.Stars), int(meta.Forks)
			} else if err == nil {
				continue
			}
			_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					r.Files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
				}
				return err
			})
			out = append(out, r)
		}
	}
	return out
}

// TestSweepHostileCorpus sweeps the hostile corpus, with a repository
// whose bundle the database refuses: no sweep job fails an attempt (the
// harness checks), the good bundles are indexed, the refused bundle and
// the repository with negative stars are recorded with their reasons in
// the owner status, and every card keeps its sizes.
func TestSweepHostileCorpus(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := newHarnessWith(t, githubtest.Options{}, false)
	if _, err := h.pool.Exec(ctx, `CREATE INDEX test_description ON bundles (description)`); err != nil {
		t.Fatal(err)
	}
	repos := hostileRepos(t)
	repos = append(repos, githubtest.Repo{Owner: "refused", Name: "kb", DefaultBranch: "main", Stars: 1,
		Files: map[string][]byte{
			"bad/index.md":  []byte("---\nokf_version: \"0.2\"\ntitle: Refused\n---\n\n" + incompressibleText(1000) + "\n"),
			"good/index.md": []byte("---\nokf_version: \"0.2\"\ntitle: Written beside a refused one\n---\n\n- [A](a.md)\n"),
		}})
	var seeds []github.RepoRef
	for _, r := range repos {
		h.gh.AddRepo(r)
		seeds = append(seeds, github.RepoRef{Owner: r.Owner, Name: r.Name})
	}
	h.startWorker(ctx, worker.SweepConfig{Seeds: seeds})
	h.firstRound(ctx) // fails the test if any sweep job failed an attempt

	got := h.bundles(ctx)
	id := func(owner, name, path string) string { return source.Repo{Owner: owner, Name: name, Path: path}.ID() }
	for _, g := range [][3]string{{"longnames", "kb", "good/index.md"}, {"longnames", "kb", "title/index.md"},
		{"longnames", "kb", "type/index.md"}, {"signals", "fine", "index.md"}, {"yaml", "kinds", "good/index.md"},
		{"okf-index", "field-guide", "index.md"}, {"refused", "kb", "good/index.md"}, {"sizes", "wide", "index.md"}} {
		if b, ok := got[id(g[0], g[1], g[2])]; !ok || b.Visibility != wire.VisibilityLive {
			t.Errorf("%s/%s %s: not indexed live (%+v)", g[0], g[1], g[2], b)
		}
	}
	for _, bad := range []string{id("refused", "kb", "bad/index.md"), id("signals", "negative", "index.md")} {
		if _, ok := got[bad]; ok {
			t.Errorf("%s indexed", bad)
		}
	}
	title, err := h.st.GetBundle(ctx, id("longnames", "kb", "title/index.md"))
	if err != nil || utf8.RuneCountInString(title.Name) != cardsize.MaxName || !cardsize.Cut(title.Card, cardsize.CutName) {
		t.Errorf("long title: %v, %d characters, cut %q", err, utf8.RuneCountInString(title.Name), title.Cut)
	}
	fake, err := h.st.GetBundle(ctx, id("okf-lndex", "field-guide", "index.md"))
	if err != nil || fake.LookAlikeOf == nil || *fake.LookAlikeOf != id("okf-index", "field-guide", "index.md") {
		t.Errorf("look-alike: %v %v", err, fake.LookAlikeOf)
	}
	for bid := range got {
		if b, err := h.st.GetBundle(ctx, bid); err == nil && cardsize.EncodedSize(b.Card) > cardsize.MaxCardBytes-2048 {
			t.Errorf("%s: card of %d bytes", bid, cardsize.EncodedSize(b.Card))
		}
	}
	for _, c := range []struct{ repo, path, reason string }{
		{"refused/kb", "bad/index.md", indexer.NotBundleWriteRefused},
		{"signals/negative", "index.md", indexer.NotBundleInvalidSignals},
	} {
		rs, err := h.st.RepoStatus(ctx, c.repo, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for _, r := range rs.Roots {
			ok = ok || r.Path == c.path && r.NotBundle == c.reason && r.Detail != ""
		}
		if !ok {
			t.Errorf("%s %s: owner status %+v", c.repo, c.path, rs.Roots)
		}
	}
	// The repository with negative stars is read again next round, and
	// still fails alone.
	cand, err := h.st.GetCandidates(ctx, []string{"signals/negative", "signals/fine"})
	if err != nil || cand["signals/negative"].SweptOID != "" || cand["signals/fine"].SweptOID == "" {
		t.Errorf("candidates: %v %+v", err, cand)
	}
}

// TestVerifyPingHostileRoots: a submission holding a root of 3,000
// characters of title and type, a root the database refuses and a good
// one completes in one attempt: the long one published cut to its sizes,
// the refused one rejected with write_refused and its reason, the good one
// published.
func TestVerifyPingHostileRoots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newVerifyHarness(t, ctx)
	if _, err := h.st.Pool().Exec(ctx, `CREATE INDEX test_description ON bundles (description)`); err != nil {
		t.Fatal(err)
	}
	h.site.set("/"+key+".txt", key)
	h.site.set("/long/index.md", "---\nokf_version: \"0.2\"\ntitle: "+strings.Repeat("T", 3000)+"\ntype: "+strings.Repeat("y", 3000)+"\n---\n\n- [A](a.md)\n")
	h.site.set("/refused/index.md", "---\nokf_version: \"0.2\"\ntitle: Refused\n---\n\n"+incompressibleText(1000)+"\n")
	h.site.set("/good/index.md", rootV1)
	h.ping(ctx, key, "/"+key+".txt", "/long/index.md", "/refused/index.md", "/good/index.md")

	got := h.statuses(ctx)
	for path, want := range map[string]string{"/long/index.md": "publicado", "/good/index.md": "publicado",
		"/refused/index.md": "rejeitado write_refused:too_large"} {
		s := got[h.site.URL+path]
		line := string(s.State)
		if s.Reason != nil {
			line += " " + *s.Reason
		}
		if line != want {
			t.Errorf("%s: %q, want %q", path, line, want)
		}
	}
	long, err := h.st.GetBundle(ctx, source.Site{URL: h.site.URL + "/long/index.md"}.ID())
	if err != nil || utf8.RuneCountInString(long.Name) != cardsize.MaxName || len(long.Type) != cardsize.MaxType {
		t.Errorf("long root: %v name %d type %d", err, utf8.RuneCountInString(long.Name), len(long.Type))
	}
	var attempts, errs int
	if err := h.st.Pool().QueryRow(ctx, `SELECT attempt, coalesce(array_length(errors, 1), 0) FROM river_job
		WHERE kind = 'verify_ping'`).Scan(&attempts, &errs); err != nil || attempts != 1 || errs != 0 {
		t.Errorf("verify_ping: %v, %d attempts, %d errors", err, attempts, errs)
	}
}
