package github

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/shurcooL/githubv4"
)

// ReadBatch is the most repositories ReadRepositories asks for in one call.
const ReadBatch = 50

// Repository is what GitHub says of a repository.
type Repository struct {
	RepoRef       // as GitHub spells it now (renames follow)
	Gone     bool // NOT_FOUND: deleted, renamed away or private to us
	Stars    int
	Forks    int
	PushedAt *time.Time
	Archived bool
	Fork     bool
	Private  bool
	Language string // "" when unknown
	License  string // SPDX id; "" when unknown
	Branch   string // default branch; "" for an empty repository
	HeadOID  string // commit at the tip of the default branch; "" when empty
}

// repoNode is the selection of one repository's signals.
type repoNode struct {
	Owner struct {
		Login string `graphql:"login"`
	} `graphql:"owner"`
	Name            string             `graphql:"name"`
	StargazerCount  int                `graphql:"stargazerCount"`
	ForkCount       int                `graphql:"forkCount"`
	PushedAt        *githubv4.DateTime `graphql:"pushedAt"`
	IsArchived      bool               `graphql:"isArchived"`
	IsFork          bool               `graphql:"isFork"`
	IsPrivate       bool               `graphql:"isPrivate"`
	PrimaryLanguage *struct {
		Name string `graphql:"name"`
	} `graphql:"primaryLanguage"`
	LicenseInfo *struct {
		SpdxID *string `graphql:"spdxId"`
	} `graphql:"licenseInfo"`
	DefaultBranchRef *struct {
		Name   string `graphql:"name"`
		Target *struct {
			Oid string `graphql:"oid"`
		} `graphql:"target"`
	} `graphql:"defaultBranchRef"`
}

// ReadRepositories reads the signals of repos, ReadBatch per call. The
// result is in the order of repos; a repository that no longer resolves
// comes back with Gone set.
func (c *Client) ReadRepositories(ctx context.Context, repos []RepoRef) ([]Repository, error) {
	out := make([]Repository, 0, len(repos))
	for start := 0; start < len(repos); start += ReadBatch {
		part := repos[start:min(start+ReadBatch, len(repos))]
		calls := make([]aliasCall, len(part))
		for i, r := range part {
			calls[i] = aliasCall{repo: r}
		}
		q, vars := batchQuery("r", calls, func(int) reflect.Type { return reflect.TypeOf(repoNode{}) })
		notFound, err := c.query(ctx, "read repositories", q.Interface(), vars)
		if err != nil {
			return nil, err
		}
		c.observe(rateOf(q))
		for i, r := range part {
			v := aliasValue(q, i)
			if notFound[aliasName("r", i)] || v.IsNil() {
				out = append(out, Repository{RepoRef: r, Gone: true})
				continue
			}
			out = append(out, repositoryOf(v.Interface().(*repoNode)))
		}
	}
	return out, nil
}

func repositoryOf(n *repoNode) Repository {
	r := Repository{
		RepoRef:  RepoRef{Owner: n.Owner.Login, Name: n.Name},
		Stars:    n.StargazerCount,
		Forks:    n.ForkCount,
		Archived: n.IsArchived,
		Fork:     n.IsFork,
		Private:  n.IsPrivate,
	}
	if n.PushedAt != nil && !n.PushedAt.IsZero() {
		t := n.PushedAt.UTC()
		r.PushedAt = &t
	}
	if n.PrimaryLanguage != nil {
		r.Language = n.PrimaryLanguage.Name
	}
	if n.LicenseInfo != nil && n.LicenseInfo.SpdxID != nil {
		r.License = *n.LicenseInfo.SpdxID
	}
	if b := n.DefaultBranchRef; b != nil {
		r.Branch = b.Name
		if b.Target != nil {
			r.HeadOID = b.Target.Oid
		}
	}
	return r
}

// String describes r for logs.
func (r Repository) String() string {
	if r.Gone {
		return fmt.Sprintf("%s (gone)", r.RepoRef)
	}
	return fmt.Sprintf("%s@%s", r.RepoRef, r.HeadOID)
}
