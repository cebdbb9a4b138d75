package indexer

import (
	"fmt"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safetext"
)

// KnownVersions are the okf_version values of published OKF specs.
var KnownVersions = map[string]bool{"0.1": true, "0.2": true}

// Warnings are what an author is told of a parsed root: okfctl lint prints
// them and the sweep records them for the owner status (GET /api/status),
// so both say the same. card is the parser's result; dir is the bundle
// directory inside its home ("" at the root); files is the home's tree, nil
// when unknown (a lone file): then links are not checked.
//
// The link warnings: a relative body link that climbs out of the bundle
// directory ("../x") leaves the bundle; one naming no file of the home (read
// with okf.LinkPath, so "/x" is bundle-dir/x, else the home's root x) points
// at a missing file; and a summary line counts the concept links that point
// at missing files.
func Warnings(card okf.Card, dir string, files okf.Files) []string {
	warnings := []string{}
	if !KnownVersions[card.OKFVersion] {
		warnings = append(warnings, fmt.Sprintf("okf_version %q is not a published OKF version (0.1, 0.2)", card.OKFVersion))
	}
	if card.NameFellBack {
		warnings = append(warnings, fmt.Sprintf("no usable title (frontmatter title or first H1): the card is named %q", card.Name))
	}
	if card.Concepts == 0 {
		warnings = append(warnings, "no concepts: no list item or table row starts with a link")
	}
	if card.Truncated {
		warnings = append(warnings, fmt.Sprintf("root is longer than %d bytes or %d entries: only the start is indexed", okf.MaxRootBytes, okf.MaxEntries))
	}
	if files == nil {
		return warnings
	}
	for _, link := range card.Links {
		if _, inBundle := okf.LinkPath("", link, nil); !inBundle {
			warnings = append(warnings, fmt.Sprintf("link %q leaves the bundle", shown(link)))
			continue
		}
		if p, ok := okf.LinkPath(dir, link, files); ok && !files(p) {
			warnings = append(warnings, fmt.Sprintf("link %q points at a missing file", shown(link)))
		}
	}
	if card.MissingLinks > 0 {
		warnings = append(warnings, okf.MissingLinksLine(card.MissingLinks, card.LocalLinks))
	}
	return CapWarnings(warnings)
}

// shown is a link as a warning quotes it: at most maxShownLink characters.
func shown(link string) string {
	s, _ := safetext.Cap(link, maxShownLink, true)
	return s
}

const maxShownLink = 200

// MaxWarnings is the most lines Warnings returns: past it, the last line
// counts the rest.
const MaxWarnings = 20

// CapWarnings keeps the first MaxWarnings-1 warnings and a line counting
// the others, when there are more than MaxWarnings: Warnings applies it,
// and a reader of warnings recorded before it did (GET /api/status) can.
func CapWarnings(w []string) []string {
	if len(w) <= MaxWarnings {
		return w
	}
	rest := len(w) - (MaxWarnings - 1)
	return append(w[:MaxWarnings-1], fmt.Sprintf("and %d more warnings", rest))
}
