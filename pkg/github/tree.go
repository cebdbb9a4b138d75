package github

import (
	"context"
	"path"
	"reflect"
	"sort"
)

// Tree listing bounds. One query expands treeLevels levels of directories;
// directories deeper than that are listed by follow-up queries, TreeBatch
// directories per call, down to MaxTreeDepth levels below the root. A
// repository stops being listed after MaxTreeEntries entries.
const (
	treeLevels     = 3
	TreeBatch      = 25
	MaxTreeDepth   = 12
	MaxTreeEntries = 20000
)

// leafEntry is a tree entry at the deepest level of one query.
type leafEntry struct {
	Name string `graphql:"name"`
	Type string `graphql:"type"`
}

// midEntry is a tree entry whose subtree is listed one level further.
type midEntry struct {
	Name   string `graphql:"name"`
	Type   string `graphql:"type"`
	Object *struct {
		Tree struct {
			Entries []leafEntry `graphql:"entries"`
		} `graphql:"... on Tree"`
	} `graphql:"object"`
}

// topEntry is a tree entry whose subtree is listed two levels further.
type topEntry struct {
	Name   string `graphql:"name"`
	Type   string `graphql:"type"`
	Object *struct {
		Tree struct {
			Entries []midEntry `graphql:"entries"`
		} `graphql:"... on Tree"`
	} `graphql:"object"`
}

// treeNode is the selection object(expression:) { ... on Tree { ... } }.
type treeNode struct {
	Tree struct {
		Entries []topEntry `graphql:"entries"`
	} `graphql:"... on Tree"`
}

// Tree is what FindIndexFiles learnt of one repository's default branch.
type Tree struct {
	Gone bool // NOT_FOUND
	// Paths are the paths of every file named index.md, hidden directories
	// included, sorted.
	Paths []string
	// Files are the paths of every file (blob) listed, index.md files
	// included, sorted: what links in the repository's bundles are checked
	// against.
	Files []string
	// Truncated is set when the listing stopped at MaxTreeDepth or
	// MaxTreeEntries: Paths may miss roots.
	Truncated bool
	Entries   int // entries listed
}

// dirJob is a directory still to list.
type dirJob struct {
	repo  int // index into repos
	dir   string
	depth int // levels below the root of dir's entries
}

// FindIndexFiles lists the default-branch trees of repos and returns, in
// their order, the paths of their index.md files.
func (c *Client) FindIndexFiles(ctx context.Context, repos []RepoRef) ([]Tree, error) {
	out := make([]Tree, len(repos))
	queue := make([]dirJob, len(repos))
	for i := range repos {
		queue[i] = dirJob{repo: i, dir: "", depth: 1}
	}
	for len(queue) > 0 {
		n := min(len(queue), TreeBatch)
		part := queue[:n]
		queue = queue[n:]
		calls := make([]aliasCall, n)
		for i, j := range part {
			calls[i] = aliasCall{repo: repos[j.repo], expr: "HEAD:" + j.dir}
		}
		q, vars := batchQuery("t", calls, func(i int) reflect.Type { return objectAt(i, reflect.TypeOf(treeNode{})) })
		notFound, err := c.query(ctx, "list trees", q.Interface(), vars)
		if err != nil {
			return nil, err
		}
		c.observe(rateOf(q))
		for i, j := range part {
			t := &out[j.repo]
			v := aliasValue(q, i)
			if notFound[aliasName("t", i)] || v.IsNil() {
				if j.dir == "" {
					t.Gone = true
				}
				continue
			}
			obj := v.Elem().Field(0).Interface().(*treeNode)
			if obj == nil {
				continue // empty repository, or the directory vanished meanwhile
			}
			queue = append(queue, t.walk(j, obj)...)
		}
	}
	for i := range out {
		sort.Strings(out[i].Paths)
		sort.Strings(out[i].Files)
	}
	return out, nil
}

// walk records the entries of one answer and returns the directories it
// did not reach.
func (t *Tree) walk(j dirJob, obj *treeNode) []dirJob {
	var more []dirJob
	visit := func(dir, name, typ string, depth int, expanded bool) bool {
		t.Entries++
		if t.Entries > MaxTreeEntries {
			t.Truncated = true
			return false
		}
		p := path.Join(dir, name)
		switch typ {
		case "blob":
			t.Files = append(t.Files, p)
			if name == "index.md" {
				t.Paths = append(t.Paths, p)
			}
		case "tree":
			if expanded {
				return true
			}
			if depth >= MaxTreeDepth {
				t.Truncated = true
				return false
			}
			more = append(more, dirJob{repo: j.repo, dir: p, depth: depth + 1})
		}
		return false
	}
	for _, e1 := range obj.Tree.Entries {
		d1 := path.Join(j.dir, e1.Name)
		if !visit(j.dir, e1.Name, e1.Type, j.depth, e1.Object != nil) || e1.Object == nil {
			continue
		}
		for _, e2 := range e1.Object.Tree.Entries {
			d2 := path.Join(d1, e2.Name)
			if !visit(d1, e2.Name, e2.Type, j.depth+1, e2.Object != nil) || e2.Object == nil {
				continue
			}
			for _, e3 := range e2.Object.Tree.Entries {
				visit(d2, e3.Name, e3.Type, j.depth+2, false)
			}
		}
	}
	return more
}
