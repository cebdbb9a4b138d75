package indexer

import (
	"errors"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/store"
)

// Why an index.md is not a bundle root beyond the parser's okf.Reason*
// words: the code host serves it as binary, or parsing failed outright.
const (
	NotBundleBinary     = "binary"
	NotBundleUnreadable = "unreadable"
)

// Verdict is what a read of a repository (the sweep, an import) records of
// the index.md at path for the owner status (GET /api/status): for a bundle
// root, its id, the warnings okfctl lint prints (Warnings, the one function
// both use) and its concept link counts against files (nil: the tree is not
// fully known, and no link is checked); for any other file, why it is not
// one. p and err are what ParseRepo returned.
func Verdict(path string, p Parsed, err error, files okf.Files) store.RootVerdict {
	if err != nil {
		var nb *okf.NotBundleError
		switch {
		case errors.As(err, &nb):
			return store.RootVerdict{Path: path, NotBundle: nb.Reason, Detail: nb.Error()}
		case errors.Is(err, okf.ErrNotBundle):
			return store.RootVerdict{Path: path, NotBundle: okf.ReasonNoVersion, Detail: err.Error()}
		}
		return store.RootVerdict{Path: path, NotBundle: NotBundleUnreadable, Detail: err.Error()}
	}
	return store.RootVerdict{
		Path:         path,
		BundleID:     p.Input.ID,
		Warnings:     Warnings(p.Card, p.Input.Source.Dir, files),
		LinksTotal:   p.Card.LocalLinks,
		LinksMissing: p.Card.MissingLinks,
		LinksChecked: files != nil,
	}
}
