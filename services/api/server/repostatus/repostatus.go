// Package repostatus answers GET /api/status?repo=owner/repo: what the
// GitHub sweep made of every index.md of a repository at its latest read,
// and when it will read it next.
package repostatus

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/query"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Store is what the route reads.
type Store interface {
	RepoStatus(ctx context.Context, repo, after string, limit int) (store.RepoStatus, error)
}

// Service answers GET /api/status.
type Service struct {
	store   Store
	baseURL string           // PUBLIC_BASE_URL without a trailing slash
	now     func() time.Time // the clock of the next read
}

// New builds the route on st.
func New(st Store, baseURL string, now func() time.Time) *Service {
	return &Service{store: st, baseURL: baseURL, now: now}
}

// Routes is the route's row.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/status", Summary: "What the sweep made of a repository's index.md files",
			Handler: s.getRepoStatus, Usage: route.CountedAsAPI, ReadsIndex: true},
	}
}

// repoStatusQuery is a validated query of GET /api/status.
type repoStatusQuery struct {
	repo   string // lowercase owner/repo
	limit  int    // 1..store.MaxOwnerStatus
	cursor string // the path the page starts after; "" for the first
}

// maxStatusCursor bounds the cursor, a path a next link carries.
const maxStatusCursor = 1024

// getRepoStatus answers GET /api/status?repo=owner/repo: what the GitHub
// sweep made of every index.md of the repository at its latest read, a page
// of at most limit in path order, with when it was read and when it will be
// read next. An unknown repository is a 200 with known false and a message
// that says how discovery finds repositories (as GET /api/ping/status
// answers an unknown host with an empty list).
func (s *Service) getRepoStatus(c echo.Context) error {
	q, err := parseRepoStatus(c.QueryString())
	if err != nil {
		return err
	}
	st, err := s.store.RepoStatus(c.Request().Context(), q.repo, q.cursor, q.limit)
	if err != nil {
		return err
	}
	out := repoStatusPage(st, s.now())
	if st.Next != "" {
		next := s.baseURL + "/api/status?" + url.Values{"repo": {q.repo}, "limit": {strconv.Itoa(q.limit)},
			"cursor": {st.Next}}.Encode()
		out.Next = &next
	}
	return respond.JSON(c, http.StatusOK, out)
}

// parseRepoStatus validates the query of GET /api/status with the rules of
// GET /api/ping/status: unknown parameters are ignored, an empty value is
// absent, a parameter given twice is a 400 invalid_parameter. A missing repo,
// or one that breaks GitHub's naming rules (validRepoName), is a 400
// invalid_repo; limit is a whole number of at least 1 (above
// store.MaxOwnerStatus it counts as that); cursor is the one a next link
// carries.
func parseRepoStatus(rawQuery string) (repoStatusQuery, error) {
	q := repoStatusQuery{limit: store.MaxOwnerStatus}
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return q, apierror.Parameter("", "The query string is not valid URL encoding.")
	}
	r := query.Reader{Vals: vals}
	raw, ok := r.Scalar("repo", false)
	if r.Err() != nil {
		return q, r.Err()
	}
	if !ok {
		return q, apierror.New(apierror.InvalidRepo, "repo is required: the repository written owner/repo, as in ?repo=octo-org/handbook.").At("repo")
	}
	if msg := validRepoName(raw); msg != "" {
		return q, apierror.New(apierror.InvalidRepo, msg).At("repo")
	}
	q.repo = strings.ToLower(raw)
	if limit, ok := r.Scalar("limit", false); ok {
		n, valid := query.WholeNumber(limit, store.MaxOwnerStatus)
		if !valid || n < 1 {
			r.Fail(apierror.Parameter("limit", "limit must be a whole number of at least 1 (above %d it counts as %d).", store.MaxOwnerStatus, store.MaxOwnerStatus))
		}
		q.limit = n
	}
	if cursor, ok := r.Scalar("cursor", false); ok {
		if len(cursor) > maxStatusCursor || strings.ContainsFunc(cursor, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			r.Fail(apierror.Parameter("cursor", "cursor must be the value of a next link."))
		}
		q.cursor = cursor
	}
	return q, r.Err()
}

// validRepoName checks owner/repo against GitHub's naming rules and returns
// what is wrong, or "": the owner is 1 to 39 letters, digits and single
// hyphens, neither first nor last; the repository is 1 to 100 letters,
// digits, '.', '-' and '_', and not "." or "..".
func validRepoName(s string) string {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || strings.Contains(name, "/") {
		return "repo must be one repository written owner/repo (one slash), as in octo-org/handbook."
	}
	switch {
	case len(owner) == 0 || len(owner) > 39:
		return "The owner in repo must be 1 to 39 characters."
	case owner[0] == '-' || owner[len(owner)-1] == '-' || strings.Contains(owner, "--"):
		return "The owner in repo may hold single hyphens only between letters or digits."
	case strings.ContainsFunc(owner, func(r rune) bool { return !isASCIIAlnum(r) && r != '-' }):
		return "The owner in repo may hold only ASCII letters, digits and hyphens."
	case len(name) == 0 || len(name) > 100:
		return "The repository name in repo must be 1 to 100 characters."
	case name == "." || name == "..":
		return "The repository name in repo cannot be \".\" or \"..\"."
	case strings.ContainsFunc(name, func(r rune) bool { return !isASCIIAlnum(r) && r != '-' && r != '.' && r != '_' }):
		return "The repository name in repo may hold only ASCII letters, digits, '.', '-' and '_'."
	}
	return ""
}

func isASCIIAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// repoStatusPage maps what the store knows of a repository to the answer.
// now places the next read.
func repoStatusPage(st store.RepoStatus, now time.Time) wire.RepoStatusPage {
	out := wire.RepoStatusPage{Repo: st.Repo, Known: st.Known, DiscoveredBy: []string{}, Items: []wire.RepoRootState{}}
	owner, name, _ := strings.Cut(st.Repo, "/")
	c := st.Candidate
	if c != nil {
		owner, name = c.Owner, c.Name
		out.DiscoveredBy = append(out.DiscoveredBy, c.DiscoveredBy...)
		out.Gone = c.Gone
		if c.SweptOID != "" {
			out.Commit = &c.SweptOID
		}
		if c.SweptAt != nil {
			out.CheckedAt = &wire.Timestamp{Time: c.SweptAt.UTC()}
		}
	}
	out.NextCheckAt, out.NextCheck = nextCheck(st.Known, c, now)
	for _, r := range st.Roots {
		out.Items = append(out.Items, repoRootState(r, source.Repo{Owner: owner, Name: name, Path: r.Path}, out.Gone))
	}
	out.Message = repoStatusMessage(st, out)
	return out
}

// nextCheck derives when the sweep reads the repository next, and says how.
// A discovery round runs every jobs.SweepDiscoverEvery (24 h) and reads the
// candidates not read since its UTC period began (worker.EnqueueDue), so a
// repository read during one period is read again in the round of the next:
// at the earliest when that period begins. A time already past means due:
// the repository waits in the current round's queue.
func nextCheck(known bool, c *store.Candidate, now time.Time) (*wire.Timestamp, string) {
	every := roundPeriod()
	switch {
	case !known:
		return nil, "Not seen yet: a repository is read in the discovery round (every " + every + ") that finds it."
	case c == nil:
		return nil, "Not a sweep candidate: its bundles came by import. The sweep reads it once a discovery round finds it."
	case c.Gone:
		return nil, "Not read again: GitHub no longer serves it. A discovery that finds it again puts it back in the next round."
	case c.SweptAt == nil:
		next := wire.Timestamp{Time: now.UTC().Truncate(time.Second)}
		return &next, "Due: found but not read yet; the current discovery round reads it."
	}
	period := jobs.SweepDiscoverEvery
	at := c.SweptAt.UTC().Truncate(period).Add(period)
	if at.Before(now) {
		at = now.UTC().Truncate(time.Second)
		return &wire.Timestamp{Time: at}, fmt.Sprintf("Due: the discovery round that runs every %s reads it in its current pass.", every)
	}
	return &wire.Timestamp{Time: at}, fmt.Sprintf("Estimated: a discovery round runs every %s and reads each repository once per UTC period of that length; this is the earliest start of the next period, and the round reads it after its discovery finishes.", every)
}

// roundPeriod is the period of discovery rounds in words ("24 hours").
func roundPeriod() string {
	return strconv.Itoa(int(jobs.SweepDiscoverEvery.Hours())) + " hours"
}

// repoRootState is one index.md as the answer shows it.
func repoRootState(r store.RootStatus, loc source.Repo, repoGone bool) wire.RepoRootState {
	// Warnings recorded before the lint capped them are capped here.
	it := wire.RepoRootState{Path: r.Path, URL: loc.PageURL(), Warnings: indexer.CapWarnings(r.Warnings)}
	if it.Warnings == nil {
		it.Warnings = []string{}
	}
	word := func(s string) *string { return &s }
	if r.BundleID == "" {
		it.State = wire.PingRejected
		it.Reason = word(r.NotBundle)
		if r.Detail != "" {
			it.Detail = word(r.Detail)
		}
	} else {
		it.State = wire.PingPublished
		it.BundleID = word(r.BundleID)
		v := wire.Visibility(r.Visibility)
		it.Visibility = &v
		switch {
		case v == wire.VisibilityLow && r.PathLow:
			it.Reason = word(wire.RootReasonExamplePath)
		case v == wire.VisibilityLow:
			it.Reason = word(wire.RootReasonDuplicate)
			if r.DupOf != "" {
				it.DuplicateOf = word(r.DupOf)
			}
		case v == wire.VisibilityHidden && repoGone:
			it.Reason = word(wire.RootReasonRepositoryGone)
		case v == wire.VisibilityHidden && !r.Seen:
			it.Reason = word(wire.RootReasonNotInTree)
		case v == wire.VisibilityHidden:
			it.Reason = word(wire.RootReasonWithdrawn)
		}
	}
	if r.LinksChecked && r.BundleID != "" {
		it.Links = &wire.LinkCount{Total: r.LinksTotal, Missing: r.LinksMissing}
	}
	if r.Commit != "" {
		it.Commit = word(r.Commit)
	}
	if r.ReadAt != nil {
		it.CheckedAt = &wire.Timestamp{Time: r.ReadAt.UTC()}
	}
	return it
}

// repoStatusMessage is the answer's one plain sentence.
func repoStatusMessage(st store.RepoStatus, out wire.RepoStatusPage) string {
	switch {
	case !st.Known:
		return st.Repo + " has not been seen yet. The index finds public GitHub repositories in a discovery round every " +
			roundPeriod() + ": repository search, code search for index.md files whose frontmatter declares " +
			"okf_version, and a seed list; a repository found is read in the same round. To be found, commit to the default branch an " +
			"index.md whose YAML frontmatter declares okf_version."
	case out.Gone:
		return st.Repo + " is gone: GitHub no longer serves it (deleted, renamed away or private), so its bundles are hidden."
	case out.CheckedAt == nil && len(st.Roots) == 0:
		return st.Repo + " was found by discovery and waits for its first read."
	case out.CheckedAt == nil:
		return st.Repo + " holds bundles that came by import; the sweep has not read it."
	}
	return fmt.Sprintf("The sweep last read %s at %s; items are the index.md files that read saw, and bundles of the repository it no longer saw.",
		st.Repo, out.CheckedAt.Format(wire.TimestampLayout))
}

// Page is the first page of what GET /api/status answers of repo (owner/name,
// lowercase), for the repository's web page.
func (s *Service) Page(ctx context.Context, repo string) (wire.RepoStatusPage, error) {
	st, err := s.store.RepoStatus(ctx, repo, "", store.MaxOwnerStatus)
	if err != nil {
		return wire.RepoStatusPage{}, err
	}
	return repoStatusPage(st, s.now()), nil
}
