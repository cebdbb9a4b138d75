package githubtest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shurcooL/githubv4"
)

// bearer adds a token to every request, as oauth2 does for the sweep.
type bearer struct{ base http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "bearer test-token")
	return b.base.RoundTrip(r)
}

// searchQuery is the sweep's discovery query, as githubv4 structs.
type searchQuery struct {
	Search struct {
		RepositoryCount int
		PageInfo        struct {
			HasNextPage bool
			EndCursor   githubv4.String
		}
		Nodes []struct {
			Repository struct {
				NameWithOwner  string
				StargazerCount int
				CreatedAt      githubv4.DateTime
				PushedAt       githubv4.DateTime
			} `graphql:"... on Repository"`
		}
	} `graphql:"search(query: $q, type: REPOSITORY, first: $first, after: $after)"`
	RateLimit struct {
		Cost      int
		Remaining int
		ResetAt   githubv4.DateTime
		NodeCount int
	}
}

// searchAll pages through a repository search with the real githubv4 client.
func searchAll(t *testing.T, c *githubv4.Client, q string) (names []string, count int) {
	t.Helper()
	vars := map[string]any{"q": githubv4.String(q), "first": githubv4.Int(100), "after": (*githubv4.String)(nil)}
	for {
		var res searchQuery
		if err := c.Query(context.Background(), &res, vars); err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		for _, n := range res.Search.Nodes {
			names = append(names, n.Repository.NameWithOwner)
		}
		if !res.Search.PageInfo.HasNextPage {
			return names, res.Search.RepositoryCount
		}
		vars["after"] = githubv4.NewString(res.Search.PageInfo.EndCursor)
	}
}

func v4client(s *Server) *githubv4.Client {
	return githubv4.NewEnterpriseClient(s.GraphQLURL(), &http.Client{Transport: bearer{http.DefaultTransport}})
}

func TestRepositorySearchInName(t *testing.T) {
	s := corpus(t)
	c := v4client(s)
	names, count := searchAll(t, c, "okf in:name")
	if count != len(names) || count == 0 {
		t.Fatalf("count %d names %d", count, len(names))
	}
	for _, n := range names {
		if !strings.Contains(strings.ToLower(n), "okf") {
			t.Errorf("%s does not carry okf in its name", n)
		}
	}
	want := map[string]bool{"eloybar/okf-skills": true, "daniel-ciaglia/slo.okf": true, "wfukatsu/OKF-ScalarDB-ScalarDL": true}
	for _, n := range names {
		delete(want, n)
	}
	if len(want) > 0 {
		t.Fatalf("missing %v in %v", want, names)
	}
	// A non-word substring does not match (GitHub matches words).
	if got, _ := searchAll(t, c, "kf in:name"); len(got) != 0 {
		t.Fatalf("kf matched %v", got)
	}
	// in:readme reaches README text; topic: and description.
	s.AddRepo(Repo{Owner: "x", Name: "plain", Description: "Team notes", Topics: []string{"okf"},
		Files: map[string][]byte{"README.md": []byte("An Open Knowledge Format (OKF) bundle.")}})
	for q, want := range map[string]int{"okf in:readme user:x": 1, "topic:okf": 1, "okf user:x": 1, "notes in:description": 1, "okf in:name user:x": 0} {
		if got, _ := searchAll(t, c, q); len(got) != want {
			t.Errorf("%q: %d results, want %d", q, len(got), want)
		}
	}
}

func TestRepositorySearchDateWindowsAndCap(t *testing.T) {
	s := New(t, Options{})
	s.AddSyntheticRepos(2500, 7)
	c := v4client(s)
	names, count := searchAll(t, c, "fork:false")
	if count != 2500 || len(names) != MaxSearchResults {
		t.Fatalf("count %d reachable %d, want 2500 and %d", count, len(names), MaxSearchResults)
	}
	// Partition by created date: quarterly windows cover everything once.
	seen := map[string]bool{}
	for y := 2024; y <= 2026; y++ {
		for m := 1; m <= 12; m += 3 {
			from := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
			to := from.AddDate(0, 3, -1)
			q := "created:" + from.Format("2006-01-02") + ".." + to.Format("2006-01-02")
			got, n := searchAll(t, c, q)
			if n > MaxSearchResults || n != len(got) {
				t.Fatalf("%s: count %d got %d", q, n, len(got))
			}
			for _, name := range got {
				if seen[name] {
					t.Fatalf("%s seen twice", name)
				}
				seen[name] = true
			}
		}
	}
	if len(seen) != 2500 {
		t.Fatalf("windows cover %d of 2500", len(seen))
	}
	_, before := searchAll(t, c, "pushed:<2025-01-01")
	_, after := searchAll(t, c, "pushed:>=2025-01-01")
	if before+after != 2500 || before == 0 || after == 0 {
		t.Fatalf("pushed split %d + %d", before, after)
	}
	_, starred := searchAll(t, c, "stars:>=50")
	if starred == 0 || starred == 2500 {
		t.Fatalf("stars:>=50 gives %d", starred)
	}
}

func TestSearchPaginationLimits(t *testing.T) {
	s := New(t, Options{})
	out, _ := post(t, s, `{ search(query: "x", type: REPOSITORY, first: 101) { repositoryCount } }`, nil)
	if len(out.Errors) != 1 || out.Errors[0].Type != "EXCESSIVE_PAGINATION" {
		t.Fatalf("errors %+v", out.Errors)
	}
	out, _ = post(t, s, `{ search(query: "x", type: REPOSITORY) { repositoryCount } }`, nil)
	if len(out.Errors) != 1 || out.Errors[0].Type != "MISSING_PAGINATION_BOUNDARIES" {
		t.Fatalf("errors %+v", out.Errors)
	}
}
