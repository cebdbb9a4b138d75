package worker

import (
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/okf"
)

// treeFiles is a listed tree as the parser asks for it (what links are
// checked against and "/x" links resolved with), or nil when the listing
// stopped short (MaxTreeEntries, MaxTreeDepth): a file missing from a cut
// listing is not missing from the repository.
func treeFiles(t github.Tree) okf.Files {
	if t.Truncated {
		return nil
	}
	set := make(map[string]struct{}, len(t.Files))
	for _, f := range t.Files {
		set[f] = struct{}{}
	}
	return func(p string) bool {
		_, ok := set[p]
		return ok
	}
}
