package okf

import "errors"

// Limits of what the parser reads from one root.
const (
	// MaxRootBytes is how much of a root index.md is indexed; the rest is ignored.
	MaxRootBytes = 2 << 20
	// MaxEntries caps the concept entries read from one root.
	MaxEntries = 10000
	// MaxConceptList is how many concepts a card lists (contract section 8).
	MaxConceptList = 24
	// MaxDescriptionRunes caps the card description (contract section 8).
	MaxDescriptionRunes = 1000
)

// ErrNotBundle is returned by Parse when the root's frontmatter does not
// declare okf_version: the file is not an OKF bundle root.
var ErrNotBundle = errors.New("okf: not a bundle root: frontmatter has no okf_version")

// Root identifies the root index.md being parsed.
type Root struct {
	// URL is the absolute URL of the root index.md. Relative concept links
	// resolve against it; links starting with "/" resolve against its
	// directory (the bundle directory), not the host root.
	URL string
	// Label names the bundle's home when the root has no usable title:
	// "owner/repo" for a repository bundle, the host for a domain bundle.
	Label string
	// Dir is the bundle directory inside its home ("" at the root). The
	// fallback name is "Label · Dir", or Label alone when Dir is empty.
	Dir string
	// Files, when set, says which files the home holds (the repository's
	// tree, as the sweep or an import knows it). Then a "/x" link resolves
	// to the home's root when only that x exists (LinkPath), and
	// Card.LocalLinks and Card.MissingLinks are counted. nil: unknown.
	Files Files
}

// FallbackName is the card name used when a root has no usable title.
func (r Root) FallbackName() string {
	if r.Dir == "" || r.Dir == "." {
		return r.Label
	}
	return r.Label + " · " + r.Dir
}

// Concept is one entry a root index lists (contract section 2.2).
type Concept struct {
	Name    string
	URL     string
	Summary string
}

// Card holds the card fields read from a root index.md (contract section
// 2.1), and what the parser noticed on the way. It is the parser's result,
// not the published card: package indexer maps it to wire.Card.
type Card struct {
	Name        string
	Tagline     string
	Description string
	OKFVersion  string
	Concepts    int
	ConceptList []Concept // the first MaxConceptList, in root order; not nil after Parse
	Type        string

	// NameFellBack is true when Name is Root.FallbackName because the root
	// had no title, or only a listing heading such as "Files" or "Index".
	NameFellBack bool
	// Truncated is true when the root was longer than MaxRootBytes or listed
	// more than MaxEntries entries, so only a prefix was read. It is also set
	// when the markdown would cost the parser more than its work budget
	// (pathological nesting or punctuation; see Parse), which real roots
	// do not reach.
	Truncated bool
	// Links are the distinct relative link destinations of the body outside
	// code, in order, as written with any #fragment removed, for tools that
	// check them against the bundle's files (okfctl lint).
	Links []string
	// LocalLinks is the number of distinct concepts whose link is relative
	// and stays inside the home, and MissingLinks how many of them name no
	// file of the home; both 0 unless Root.Files was given.
	LocalLinks   int
	MissingLinks int
}
