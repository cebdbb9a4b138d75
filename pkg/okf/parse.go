package okf

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/safetext"
)

// Parse reads a root index.md into card fields. root says where the file
// lives: relative concept links resolve against root.URL, and root names the
// card when the file has no usable title.
//
// Parse returns an error wrapping ErrNotBundle when the file is not an OKF
// bundle root: no frontmatter, frontmatter that is not a YAML mapping, or no
// okf_version in it (okf_version in the body does not count). It returns
// another error when root.URL is not an absolute URL, and, should the
// markdown parser ever panic, an error instead of the panic.
//
// Only the first MaxRootBytes of data are read, at most MaxEntries concept
// entries, and only as much markdown as fits the parser's work budget (see
// parseLimit); Card.Truncated reports any cut. The description is always cut
// from the body as read, whatever the parser read.
//
// Text is cleaned as it is read (package safetext): the name, tagline, type,
// okf_version and each concept's name and summary lose control, bidirectional
// and zero-width characters and become one line; the description loses the
// control and bidirectional characters. A title or H1 of such characters
// only is no title. Concepts whose URL is longer than cardsize.MaxConceptURL
// bytes are not concept targets. The card's sizes are cardsize.Fit's.
func Parse(data []byte, root Root) (card Card, err error) {
	defer func() {
		if p := recover(); p != nil {
			card, err = Card{}, fmt.Errorf("okf: parse %s: recovered from panic: %v", cleanString(root.URL), p)
		}
	}()
	truncated := len(data) > MaxRootBytes
	src := sanitize(cutAtRuneBoundary(data, MaxRootBytes))

	yamlText, body, err := splitFrontmatter(src)
	if err != nil {
		return Card{}, err
	}
	fm, err := readFrontmatter(yamlText)
	if err != nil {
		return Card{}, err
	}
	res, err := newRootResolver(root)
	if err != nil {
		return Card{}, fmt.Errorf("okf: root URL: %w", err)
	}

	limit := parseLimit(body)
	scan := scanBody(markdownParser(body[:limit]))
	card = Card{
		Tagline:     capRunes(safetext.Line(firstLine(fm.description)), MaxDescriptionRunes),
		Description: safetext.Block(description(body)),
		OKFVersion:  safetext.Line(fm.version),
		Type:        safetext.Line(fm.typ),
		Truncated:   truncated || limit < len(body) || scan.truncated,
		Links:       scan.links,
	}
	card.Name, card.NameFellBack = chooseName(safetext.Line(fm.title), safetext.Line(scan.h1), root)
	card.Name = safetext.Line(card.Name)
	card.Concepts, card.ConceptList, card.LocalLinks, card.MissingLinks = concepts(scan.entries, res)
	return card, nil
}

// description is the body as written, leading blank lines and trailing
// whitespace removed, capped at MaxDescriptionRunes runes.
func description(body []byte) string {
	for len(body) > 0 {
		line, rest, found := bytes.Cut(body, []byte("\n"))
		if len(bytes.TrimSpace(line)) > 0 || !found {
			break
		}
		body = rest
	}
	n, runes := 0, 0
	for n < len(body) && runes < MaxDescriptionRunes {
		_, size := utf8.DecodeRune(body[n:])
		n += size
		runes++
	}
	return string(bytes.TrimRight(body[:n], " \t\n"))
}

// concepts resolves the entries and returns the number of distinct concept
// URLs and the first MaxConceptList of them in root order.
//
// Decisions: distinctness ignores the #fragment (a fragment is a place in
// the same concept file) but the listed URL keeps it; the list holds each
// distinct URL once, at its first entry, so it agrees with the count;
// entries whose link is not a concept target (see resolver.resolve) are
// skipped.
//
// When the home's tree is known (Root.Files), local counts the distinct
// concepts whose link is relative and stays inside the home, and missing
// those of them that name no file there (LinkPath).
func concepts(entries []entry, res resolver) (n int, list []Concept, local, missing int) {
	seen := make(map[string]bool, len(entries))
	list = []Concept{}
	for _, e := range entries {
		u, ok := res.resolve(e.dest())
		if !ok || len(u) > cardsize.MaxConceptURL {
			continue
		}
		key := withoutFragment(u)
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(list) < MaxConceptList {
			list = append(list, Concept{Name: safetext.Line(e.name()), URL: cleanString(u), Summary: safetext.Line(e.summary())})
		}
		if res.files != nil {
			if p, ok := LinkPath(res.bundleDir, e.dest(), res.files); ok {
				local++
				if !res.files(p) {
					missing++
				}
			}
		}
	}
	return len(seen), list, local, missing
}
