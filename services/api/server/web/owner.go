package web

import (
	"html/template"
	"net/url"
	"regexp"
	"strings"

	"github.com/okfindex/okf-index/pkg/wire"
)

// The owner and repository pages (/o/<owner>, /r/<owner>/<repo>): every
// bundle of an owner's repositories or of one repository, with its state;
// the repository page also says what GET /api/status says.

// OwnedCard is one bundle of an owner or repository page.
type OwnedCard struct {
	CardView
	Path string // the root's path in its repository
	Low  bool   // kept out of search: a duplicate or an example
}

// RepoGroup is the bundles of one repository.
type RepoGroup struct {
	Name, URL string
	Bundles   []OwnedCard
}

// OwnerView is the owner page, and with Repo set the repository page.
type OwnerView struct {
	Chrome
	Owner     string // as GitHub spells it, when a bundle says so
	OwnerURL  string
	Repo      string // owner/name as GitHub spells it; "" on an owner page
	Groups    []RepoGroup
	Count     int
	More      bool // the page lists OwnerPageLimit bundles and there are more
	Status    *RepoStatusView
	SearchURL string
}

// RepoStatusView is what GET /api/status says of a repository, as shown.
type RepoStatusView struct {
	Message      string
	DiscoveredBy string
	Checked      Date
	Commit       string
	NextCheck    string
	Gone         bool
	Roots        []RootStateView
	JSONURL      string
}

// RootStateView is one index.md of the status.
type RootStateView struct {
	Path, URL, State, Reason string
	BundleURL                string
}

// OwnerInput is what the server hands over to build an owner or repository page.
type OwnerInput struct {
	Owner, Repo string // as asked, lowercase
	Bundles     []OwnedInput
	More        bool
	Status      *wire.RepoStatusPage // the repository page only
	Full        bool
}

// OwnedInput is one bundle and whether search lists it.
type OwnedInput struct {
	Card wire.Card
	Low  bool
}

// NewOwnerView builds an owner page (in.Repo "") or a repository page.
func NewOwnerView(in OwnerInput) OwnerView {
	v := OwnerView{Owner: in.Owner, OwnerURL: OwnerPath(in.Owner + "/"), Repo: in.Repo, More: in.More, Count: len(in.Bundles)}
	for _, b := range in.Bundles {
		c := OwnedCard{CardView: cardView(b.Card, Highlighter{}), Path: b.Card.Source.Path, Low: b.Low}
		display := DisplayRepo(b.Card)
		if o, _, ok := strings.Cut(display, "/"); ok && strings.EqualFold(o, in.Owner) {
			v.Owner = o
		}
		if in.Repo != "" && strings.EqualFold(display, in.Repo) {
			v.Repo = display
		}
		if n := len(v.Groups); n == 0 || !strings.EqualFold(v.Groups[n-1].Name, display) {
			v.Groups = append(v.Groups, RepoGroup{Name: display, URL: RepoPath(*b.Card.Source.Repo)})
		}
		g := &v.Groups[len(v.Groups)-1]
		g.Bundles = append(g.Bundles, c)
	}
	title := v.Owner
	desc := "Every OKF bundle of the repositories of " + v.Owner + " in OKF Index."
	v.SearchURL = ""
	if in.Repo != "" {
		if v.Repo == "" {
			v.Repo = in.Repo
		}
		title = v.Repo
		desc = "Every OKF bundle of the repository " + v.Repo + " in OKF Index, and what the sweep made of it."
		v.SearchURL = "/?repo=" + template.URLQueryEscaper(in.Repo)
	}
	v.Chrome = Chrome{Title: title + " · OKF Index", Description: desc, Full: in.Full}
	if in.Status != nil {
		v.Status = repoStatusView(*in.Status)
	}
	return v
}

// statusReason turns a machine reason (snake_case) into words.
var statusReason = regexp.MustCompile(`_`)

func repoStatusView(st wire.RepoStatusPage) *RepoStatusView {
	v := &RepoStatusView{Message: st.Message, NextCheck: st.NextCheck, Gone: st.Gone,
		DiscoveredBy: statusReason.ReplaceAllString(strings.Join(st.DiscoveredBy, ", "), " "),
		JSONURL:      "/api/status?repo=" + template.URLQueryEscaper(st.Repo)}
	if st.CheckedAt != nil {
		v.Checked = dateOf(*st.CheckedAt)
	}
	if st.Commit != nil {
		v.Commit = *st.Commit
		if len(v.Commit) > 12 {
			v.Commit = v.Commit[:12]
		}
	}
	for _, r := range st.Items {
		row := RootStateView{Path: r.Path, URL: webURL(r.URL), State: string(r.State)}
		if r.Visibility != nil {
			row.State = string(*r.Visibility)
		}
		if r.Reason != nil {
			row.Reason = statusReason.ReplaceAllString(*r.Reason, " ")
		}
		if r.Detail != nil {
			row.Reason = strings.TrimSpace(row.Reason + ": " + *r.Detail)
		}
		if r.BundleID != nil {
			row.BundleURL = "/b/" + url.PathEscape(*r.BundleID)
		}
		v.Roots = append(v.Roots, row)
	}
	return v
}
