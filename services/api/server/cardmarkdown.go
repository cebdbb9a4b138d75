package server

import (
	"fmt"
	"mime"
	"strconv"
	"strings"

	"github.com/okfindex/okf-index/pkg/wire"
)

// A card asked for with Accept: text/markdown is answered as markdown, the
// form agents read best; JSON stays the default. The description is the
// bundle's own markdown, so it is given as written.

// prefersMarkdown reports whether an Accept header ranks text/markdown above
// JSON: a missing header, */* or a tie keeps JSON.
func prefersMarkdown(accept string) bool {
	var md, js float64
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "text/markdown":
			md = max(md, q)
		case "application/json", "application/*", "*/*":
			js = max(js, q)
		}
	}
	return md > 0 && md > js
}

// cardMarkdown writes a card as markdown: its name, tagline, facts, the
// description and the concept list with links.
func cardMarkdown(c wire.Card) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(c.Name))
	if c.Tagline != "" {
		fmt.Fprintf(&b, "> %s\n\n", oneLine(c.Tagline))
	}
	fmt.Fprintf(&b, "- id: `%s`\n- okf_version: %s\n", c.ID, oneLine(c.OKFVersion))
	if c.Type != "" {
		fmt.Fprintf(&b, "- type: %s\n", oneLine(c.Type))
	}
	fmt.Fprintf(&b, "- concepts: %d\n", c.Concepts)
	fmt.Fprintf(&b, "- source: %s via %s, <%s>, `%s`\n", c.Source.Origin, c.Source.Via, c.Source.URL, c.Source.Path)
	if r := c.Repo; r != nil {
		fmt.Fprintf(&b, "- repository: %d stars, %d forks", r.Stars, r.Forks)
		for _, v := range []*string{r.Language, r.License, r.State} {
			if v != nil {
				fmt.Fprintf(&b, ", %s", oneLine(*v))
			}
		}
		if r.PushedAt != nil {
			fmt.Fprintf(&b, ", pushed %s", r.PushedAt.UTC().Format(wire.TimestampLayout))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "- indexed: %s; updated: %s\n", c.IndexedAt.UTC().Format(wire.TimestampLayout), c.UpdatedAt.UTC().Format(wire.TimestampLayout))
	fmt.Fprintf(&b, "- root: <%s>\n- page: <%s>\n- card (JSON): <%s>\n", c.IndexURL, c.PageURL, c.API)
	if d := strings.TrimSpace(c.Description); d != "" {
		fmt.Fprintf(&b, "\n## Description\n\n%s\n", d)
	}
	if len(c.ConceptList) > 0 {
		fmt.Fprintf(&b, "\n## Concepts\n\n")
		for _, k := range c.ConceptList {
			fmt.Fprintf(&b, "- [%s](<%s>)", linkText(k.Name), k.URL)
			if k.Summary != "" {
				fmt.Fprintf(&b, ": %s", oneLine(k.Summary))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// oneLine folds a value onto one line, so it cannot start a heading or a
// list item of its own.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// linkText escapes what would end a markdown link's text early.
func linkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(oneLine(s))
}
