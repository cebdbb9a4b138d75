package okf_test

import (
	"errors"
	"fmt"

	"github.com/okfindex/okf-index/pkg/okf"
)

// A bundle root in a repository's okf/ directory: frontmatter with
// okf_version, a title, and entries linking the bundle's concepts.
func ExampleParse() {
	root := okf.Root{
		URL:   "https://raw.githubusercontent.com/acme/shop/HEAD/okf/index.md",
		Label: "acme/shop",
		Dir:   "okf",
	}
	src := `---
okf_version: 0.10
title: Acme Shop knowledge
description: |
  What the shop's data means.
  Kept by the data team.
type: Knowledge Bundle
---

# Acme Shop

* [Orders](/tables/orders.md) - One row per order, refunds included.
* [Active customer](metrics/active-customer.md): ordered in the last 90 days.
* [Playbooks](playbooks/) — How to answer recurring questions.
* [Orders again](tables/orders.md#columns) - Same file, counted once.
`
	card, err := okf.Parse([]byte(src), root)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("name:", card.Name)
	fmt.Println("tagline:", card.Tagline)
	fmt.Println("okf_version:", card.OKFVersion)
	fmt.Println("type:", card.Type)
	fmt.Println("concepts:", card.Concepts)
	for _, c := range card.ConceptList {
		fmt.Printf("- %s <%s> %s\n", c.Name, c.URL, c.Summary)
	}
	// Output:
	// name: Acme Shop knowledge
	// tagline: What the shop's data means.
	// okf_version: 0.10
	// type: Knowledge Bundle
	// concepts: 3
	// - Orders <https://raw.githubusercontent.com/acme/shop/HEAD/okf/tables/orders.md> One row per order, refunds included.
	// - Active customer <https://raw.githubusercontent.com/acme/shop/HEAD/okf/metrics/active-customer.md> ordered in the last 90 days.
	// - Playbooks <https://raw.githubusercontent.com/acme/shop/HEAD/okf/playbooks/index.md> How to answer recurring questions.
}

// A root whose only heading is a listing heading is named after its home.
func ExampleParse_fallbackName() {
	root := okf.Root{URL: "https://docs.example.com/kb/index.md", Label: "docs.example.com", Dir: "kb"}
	card, _ := okf.Parse([]byte("---\nokf_version: \"0.2\"\n---\n# Subdirectories\n\n* [tables](tables/index.md)\n"), root)
	fmt.Println(card.Name, card.NameFellBack)
	// Output: docs.example.com · kb true
}

// An index.md without okf_version in its frontmatter is not a bundle root.
func ExampleParse_notABundle() {
	root := okf.Root{URL: "https://example.com/index.md", Label: "example.com"}
	_, err := okf.Parse([]byte("# Notes\n\nokf_version: 0.1 (in the body, so it does not count)\n"), root)
	fmt.Println(errors.Is(err, okf.ErrNotBundle))
	// Output: true
}
