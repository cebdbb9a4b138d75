package githubtest

import "github.com/graph-gophers/graphql-go"

// searchConn resolves SearchResultItemConnection for one page.
type searchConn struct {
	items     []*repoSnap
	offset    int // index of items[0] in the result list
	total     int // all matches (repositoryCount, may exceed 1000)
	reachable int // matches a client can page through (<= 1000)
}

func (c *searchConn) RepositoryCount() int32 { return int32(c.total) }
func (c *searchConn) CodeCount() int32       { return 0 }
func (c *searchConn) DiscussionCount() int32 { return 0 }
func (c *searchConn) IssueCount() int32      { return 0 }
func (c *searchConn) UserCount() int32       { return 0 }
func (c *searchConn) WikiCount() int32       { return 0 }

func (c *searchConn) Nodes() *[]*searchItem {
	out := make([]*searchItem, len(c.items))
	for i, r := range c.items {
		out[i] = &searchItem{repo: &repoResolver{r}}
	}
	return &out
}

func (c *searchConn) Edges() *[]*searchEdge {
	out := make([]*searchEdge, len(c.items))
	for i, r := range c.items {
		out[i] = &searchEdge{cursor: encodeCursor(c.offset + i + 1), node: &searchItem{repo: &repoResolver{r}}}
	}
	return &out
}

func (c *searchConn) PageInfo() *pageInfo {
	p := &pageInfo{
		hasNext: c.offset+len(c.items) < c.reachable,
		hasPrev: c.offset > 0,
	}
	if len(c.items) > 0 {
		start, end := encodeCursor(c.offset+1), encodeCursor(c.offset+len(c.items))
		p.start, p.end = &start, &end
	}
	return p
}

type searchEdge struct {
	cursor string
	node   *searchItem
}

func (e *searchEdge) Cursor() string    { return e.cursor }
func (e *searchEdge) Node() *searchItem { return e.node }

// searchItem resolves the SearchResultItem union (only Repository occurs).
type searchItem struct{ repo *repoResolver }

func (i *searchItem) ToRepository() (*repoResolver, bool)    { return i.repo, i.repo != nil }
func (i *searchItem) ToUser() (*ownerResolver, bool)         { return nil, false }
func (i *searchItem) ToOrganization() (*ownerResolver, bool) { return nil, false }
func (i *searchItem) ToIssue() (*stubResolver, bool)         { return nil, false }
func (i *searchItem) ToDiscussion() (*stubResolver, bool)    { return nil, false }

// stubResolver serves the Issue and Discussion stubs (never returned).
type stubResolver struct{}

func (*stubResolver) ID() graphql.ID { return "" }
func (*stubResolver) Number() int32  { return 0 }
func (*stubResolver) Title() string  { return "" }
func (*stubResolver) URL() uri       { return "" }
