package githubtest

import (
	"context"
	"fmt"
	"strings"
	"time"

	graphql "github.com/graph-gophers/graphql-go"
)

// Scalars: GitHub's custom scalars travel as strings.
type (
	dateTime    string
	gitObjectID string
	uri         string
)

func (dateTime) ImplementsGraphQLType(n string) bool    { return n == "DateTime" }
func (gitObjectID) ImplementsGraphQLType(n string) bool { return n == "GitObjectID" }
func (uri) ImplementsGraphQLType(n string) bool         { return n == "URI" }

func (d *dateTime) UnmarshalGraphQL(in any) error    { return unmarshalString(in, (*string)(d)) }
func (g *gitObjectID) UnmarshalGraphQL(in any) error { return unmarshalString(in, (*string)(g)) }
func (u *uri) UnmarshalGraphQL(in any) error         { return unmarshalString(in, (*string)(u)) }

func unmarshalString(in any, dst *string) error {
	s, ok := in.(string)
	if !ok {
		return fmt.Errorf("wrong type %T, want string", in)
	}
	*dst = s
	return nil
}

func fmtTime(t time.Time) dateTime { return dateTime(t.UTC().Format(time.RFC3339)) }

// query is the root resolver.
type query struct{ s *Server }

func (q *query) RateLimit(ctx context.Context, args struct{ DryRun bool }) *rateLimitResolver {
	c, _ := ctx.Value(costKey{}).(callCost)
	return &rateLimitResolver{c}
}

type rateLimitResolver struct{ c callCost }

func (r *rateLimitResolver) Cost() int32       { return int32(r.c.cost) }
func (r *rateLimitResolver) Limit() int32      { return int32(r.c.after.limit) }
func (r *rateLimitResolver) NodeCount() int32  { return int32(r.c.nodes) }
func (r *rateLimitResolver) Remaining() int32  { return int32(r.c.after.remaining) }
func (r *rateLimitResolver) Used() int32       { return int32(r.c.after.used()) }
func (r *rateLimitResolver) ResetAt() dateTime { return fmtTime(r.c.after.resetAt) }

func (q *query) Repository(args struct {
	FollowRenames bool
	Name, Owner   string
}) (*repoResolver, error) {
	snap := q.s.lookup(args.Owner, args.Name)
	if snap == nil {
		return nil, &ghError{Type: "NOT_FOUND",
			Message: fmt.Sprintf("Could not resolve to a Repository with the name '%s/%s'.", args.Owner, args.Name)}
	}
	return &repoResolver{snap}, nil
}

// repoResolver resolves Repository from one immutable snapshot.
type repoResolver struct{ r *repoSnap }

func (r *repoResolver) ID() graphql.ID {
	return graphql.ID(fmt.Sprintf("R_kgDO%08X", r.r.dbID))
}
func (r *repoResolver) Name() string          { return r.r.Name }
func (r *repoResolver) NameWithOwner() string { return r.r.FullName() }
func (r *repoResolver) URL() uri              { return uri("https://github.com/" + r.r.FullName()) }
func (r *repoResolver) Description() *string {
	if r.r.Description == "" {
		return nil
	}
	return &r.r.Description
}
func (r *repoResolver) IsArchived() bool      { return r.r.Archived }
func (r *repoResolver) IsFork() bool          { return r.r.Fork }
func (r *repoResolver) IsPrivate() bool       { return false }
func (r *repoResolver) IsDisabled() bool      { return false }
func (r *repoResolver) IsEmpty() bool         { return len(r.r.paths) == 0 }
func (r *repoResolver) StargazerCount() int32 { return int32(r.r.Stars) }
func (r *repoResolver) ForkCount() int32      { return int32(r.r.Forks) }
func (r *repoResolver) CreatedAt() dateTime   { return fmtTime(r.r.CreatedAt) }
func (r *repoResolver) UpdatedAt() dateTime   { return fmtTime(r.r.PushedAt) }
func (r *repoResolver) PushedAt() *dateTime {
	d := fmtTime(r.r.PushedAt)
	return &d
}
func (r *repoResolver) Owner() *ownerResolver { return &ownerResolver{login: r.r.Owner} }

func (r *repoResolver) PrimaryLanguage() *languageResolver {
	if r.r.Language == "" {
		return nil
	}
	return &languageResolver{r.r.Language}
}

func (r *repoResolver) LicenseInfo() *licenseResolver {
	if r.r.License == "" {
		return nil
	}
	return &licenseResolver{r.r.License}
}

func (r *repoResolver) DefaultBranchRef() *refResolver {
	if len(r.r.paths) == 0 {
		return nil
	}
	return &refResolver{r.r}
}

type pageArgs struct {
	After, Before *string
	First, Last   *int32
}

func (r *repoResolver) RepositoryTopics(args pageArgs) (*topicConn, error) {
	if err := checkPaging("repositoryTopics", args); err != nil {
		return nil, err
	}
	var nodes []*topicResolver
	for _, t := range r.r.Topics {
		nodes = append(nodes, &topicResolver{t})
	}
	n := len(nodes)
	if args.First != nil && int(*args.First) < n {
		nodes = nodes[:*args.First]
	}
	return &topicConn{nodes: nodes, total: n}, nil
}

// checkPaging applies GitHub's rules for first/last on a connection.
func checkPaging(conn string, a pageArgs) error {
	if a.First == nil && a.Last == nil {
		return &ghError{Type: "MISSING_PAGINATION_BOUNDARIES",
			Message: fmt.Sprintf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", conn)}
	}
	for name, v := range map[string]*int32{"first": a.First, "last": a.Last} {
		if v != nil && (*v > 100 || *v < 0) {
			return &ghError{Type: "EXCESSIVE_PAGINATION",
				Message: fmt.Sprintf("Requesting %d records on the `%s` connection exceeds the `%s` limit of 100 records.", *v, conn, name)}
		}
	}
	return nil
}

type ownerResolver struct{ login string }

func (o *ownerResolver) ID() graphql.ID                         { return graphql.ID("U_" + strings.ToLower(o.login)) }
func (o *ownerResolver) Login() string                          { return o.login }
func (o *ownerResolver) Name() *string                          { return nil }
func (o *ownerResolver) URL() uri                               { return uri("https://github.com/" + o.login) }
func (o *ownerResolver) ToUser() (*ownerResolver, bool)         { return o, true }
func (o *ownerResolver) ToOrganization() (*ownerResolver, bool) { return nil, false }

type languageResolver struct{ name string }

func (l *languageResolver) Color() *string { return nil }
func (l *languageResolver) ID() graphql.ID { return graphql.ID("L_" + l.name) }
func (l *languageResolver) Name() string   { return l.name }

// knownLicenses maps SPDX ids to GitHub's license key and name.
var knownLicenses = map[string][2]string{
	"MIT":          {"mit", "MIT License"},
	"Apache-2.0":   {"apache-2.0", "Apache License 2.0"},
	"BSD-3-Clause": {"bsd-3-clause", `BSD 3-Clause "New" or "Revised" License`},
	"BSD-2-Clause": {"bsd-2-clause", `BSD 2-Clause "Simplified" License`},
	"AGPL-3.0":     {"agpl-3.0", "GNU Affero General Public License v3.0"},
	"GPL-3.0":      {"gpl-3.0", "GNU General Public License v3.0"},
	"ISC":          {"isc", "ISC License"},
	"MPL-2.0":      {"mpl-2.0", "Mozilla Public License 2.0"},
	"CC-BY-4.0":    {"cc-by-4.0", "Creative Commons Attribution 4.0 International"},
	"Unlicense":    {"unlicense", "The Unlicense"},
	"NOASSERTION":  {"other", "Other"},
}

type licenseResolver struct{ spdx string }

func (l *licenseResolver) info() [2]string {
	if v, ok := knownLicenses[l.spdx]; ok {
		return v
	}
	return [2]string{strings.ToLower(l.spdx), l.spdx}
}
func (l *licenseResolver) ID() graphql.ID    { return graphql.ID("MDc6TGljZW5zZT" + l.info()[0]) }
func (l *licenseResolver) Key() string       { return l.info()[0] }
func (l *licenseResolver) Name() string      { return l.info()[1] }
func (l *licenseResolver) Nickname() *string { return nil }
func (l *licenseResolver) SpdxID() *string   { s := l.spdx; return &s }
func (l *licenseResolver) URL() *uri {
	if l.spdx == "NOASSERTION" {
		return nil
	}
	u := uri("http://choosealicense.com/licenses/" + l.info()[0] + "/")
	return &u
}

type refResolver struct{ r *repoSnap }

func (f *refResolver) ID() graphql.ID       { return graphql.ID("REF_" + f.r.FullName()) }
func (f *refResolver) Name() string         { return f.r.DefaultBranch }
func (f *refResolver) Prefix() string       { return "refs/heads/" }
func (f *refResolver) Target() *objResolver { return &objResolver{r: f.r, kind: kindCommit} }

type topicConn struct {
	nodes []*topicResolver
	total int
}

func (c *topicConn) Nodes() *[]*topicResolver { return &c.nodes }
func (c *topicConn) TotalCount() int32        { return int32(c.total) }
func (c *topicConn) PageInfo() *pageInfo {
	return &pageInfo{hasNext: len(c.nodes) < c.total}
}

type topicResolver struct{ name string }

func (t *topicResolver) ID() graphql.ID        { return graphql.ID("RT_" + t.name) }
func (t *topicResolver) URL() uri              { return uri("https://github.com/topics/" + t.name) }
func (t *topicResolver) Topic() *topicResolver { return t }
func (t *topicResolver) Name() string          { return t.name }

type pageInfo struct {
	start, end       *string
	hasNext, hasPrev bool
}

func (p *pageInfo) StartCursor() *string  { return p.start }
func (p *pageInfo) EndCursor() *string    { return p.end }
func (p *pageInfo) HasNextPage() bool     { return p.hasNext }
func (p *pageInfo) HasPreviousPage() bool { return p.hasPrev }
