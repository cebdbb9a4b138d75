package repostatus

import (
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

func FuzzParseRepoStatus(f *testing.F) {
	for _, s := range []string{"repo=a/b", "repo=Octo-Org/Handbook&limit=2&cursor=okf%2Findex.md", "repo=-a/b", "repo=a/..", "%zz", "repo=a/b&repo=c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := parseRepoStatus(raw)
		if err != nil {
			return
		}
		if validRepoName(q.repo) != "" || q.repo != strings.ToLower(q.repo) || q.limit < 1 || q.limit > store.MaxOwnerStatus {
			t.Fatalf("accepted %q as %+v", raw, q)
		}
	})
}

// nextCheck places the next read by the sweep's schedule: the start of the
// UTC day after the last read, now when that is past, none when gone,
// imported or unknown.
func TestNextCheck(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	at := func(s string) *time.Time {
		v, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	for _, tc := range []struct {
		name  string
		known bool
		c     *store.Candidate
		want  string // "" for none
		says  string
	}{
		{"read this morning", true, &store.Candidate{SweptAt: at("2026-11-26 03:00:00")}, "2026-11-27 00:00:00", "Estimated"},
		{"read yesterday: due", true, &store.Candidate{SweptAt: at("2026-11-25 23:00:00")}, "2026-11-26 10:00:00", "Due"},
		{"found, never read", true, &store.Candidate{}, "2026-11-26 10:00:00", "Due"},
		{"gone", true, &store.Candidate{Gone: true, SweptAt: at("2026-11-26 03:00:00")}, "", "no longer serves"},
		{"imported", true, nil, "", "import"},
		{"unknown", false, nil, "", "Not seen yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, says := nextCheck(tc.known, tc.c, now)
			got := ""
			if next != nil {
				got = next.Format(time.DateTime)
			}
			if got != tc.want || !strings.Contains(says, tc.says) {
				t.Errorf("%q %q, want %q and %q", got, says, tc.want, tc.says)
			}
		})
	}
}
