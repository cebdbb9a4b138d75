package indexer

import (
	"errors"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safetext"
	"github.com/okfindex/okf-index/pkg/store"
)

// Why an index.md is not a bundle root beyond the parser's okf.Reason*
// words: the code host serves it as binary, or parsing failed outright.
const (
	NotBundleBinary     = "binary"
	NotBundleUnreadable = "unreadable"
	// NotBundlePathTooLong: the path is longer than MaxPathBytes.
	NotBundlePathTooLong = "path_too_long"
	// NotBundleInvalidSignals: the repository's signals are out of range
	// (RepoInfo.Check), so none of its roots is indexed.
	NotBundleInvalidSignals = "invalid_signals"
	// NotBundleWriteRefused: the root is a bundle, but the database refused
	// to write it (store.Refusal says why); the rest of its batch was
	// written.
	NotBundleWriteRefused = "write_refused"
)

// maxDetail bounds a verdict's Detail, in characters.
const maxDetail = 300

// Verdict is what a read of a repository (the sweep, an import) records of
// the index.md at path for the owner status (GET /api/status): for a bundle
// root, its id, the warnings okfctl lint prints (Warnings, the one function
// both use) and its concept link counts against files (nil: the tree is not
// fully known, and no link is checked); for any other file, why it is not
// one. p and err are what ParseRepo returned.
func Verdict(path string, p Parsed, err error, files okf.Files) store.RootVerdict {
	if err != nil {
		reason, detail := NotBundleReason(err)
		return store.RootVerdict{Path: path, NotBundle: reason, Detail: detail}
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

// NotBundleReason is the reason word and the sentence for an error of
// ParseRepo or ParseSite: why the file is not indexed. Verdict records them
// for the owner status (GET /api/status) and okfctl lint prints them, so
// both say the same. The sentence is one line of at most maxDetail
// characters.
func NotBundleReason(err error) (reason, detail string) {
	var nb *okf.NotBundleError
	var se *cardsize.SignalError
	switch {
	case errors.As(err, &nb):
		reason, detail = nb.Reason, nb.Error()
	case errors.Is(err, okf.ErrNotBundle):
		reason, detail = okf.ReasonNoVersion, err.Error()
	case errors.Is(err, ErrPathTooLong):
		reason, detail = NotBundlePathTooLong, ErrPathTooLong.Error()
	case errors.As(err, &se):
		reason, detail = NotBundleInvalidSignals, se.Error()
	default:
		reason, detail = NotBundleUnreadable, err.Error()
	}
	detail, _ = safetext.Cap(safetext.Line(detail), maxDetail, true)
	return reason, detail
}

// RefusalDetail is the sentence a refused bundle's status shows (the owner
// status, okfctl import): what the database refused, in one line of at most
// maxDetail characters.
func RefusalDetail(ref *store.Refusal) string {
	var d string
	switch ref.Reason {
	case store.RefusedInvalidSignals:
		d = "the repository's signals are out of range: " + ref.Err.Error()
	case store.RefusedTooLarge:
		d = "a field is past a size the index can hold"
	default:
		d = "the index refused a value of the card (" + ref.Reason + ")"
	}
	d, _ = safetext.Cap(d, maxDetail, true)
	return d
}
