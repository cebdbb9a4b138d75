package searchtext_test

import (
	"fmt"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// A bundle is indexed with the configuration Language picks for its text,
// over its text and the words Expand adds to it.
func ExampleExpand() {
	text := "PharmacyDomain: DDD notes for node.js, 大模型研究"
	fmt.Println(searchtext.Language(text))
	fmt.Println(searchtext.Expand(text))
	// Output:
	// okf_english
	// Pharmacy Domain node js nodejs 大模 模型 型研 研究
}

func ExampleLanguage() {
	fmt.Println(searchtext.Language("Conhecimento operacional do pipeline — regras, convenções e contratos entre módulos."))
	fmt.Println(searchtext.Language("Kuratiertes Wissen zum deutschen Recht, das mit den amtlichen Quellen belegt ist."))
	fmt.Println(searchtext.Language("プロジェクトの設計ガイドライン"))
	fmt.Println(searchtext.Language("A curated knowledge base of blockchains."))
	// Output:
	// okf_portuguese
	// okf_german
	// okf_simple
	// okf_english
}

// A query as typed: stop words left out, a phrase, an excluded word, a
// camelCase name with its parts, and the last word open as a prefix.
func ExampleParseQuery() {
	q := searchtext.ParseQuery(`how to use "react native" with PharmacyDomain -java kube`)
	for _, t := range q.Terms {
		fmt.Printf("%q phrase=%v parts=%q prefix=%v\n", t.Words, t.Phrase, t.Parts, t.Prefix)
	}
	fmt.Printf("excluded %q\n", q.Excluded[0].Words)

	r := searchtext.ParseQuery("https://github.com/OKFIndex/okf-index/tree/main/docs")
	fmt.Println(r.Repo, r.Key)
	// Output:
	// ["use"] phrase=false parts=[] prefix=false
	// ["react" "native"] phrase=true parts=[] prefix=false
	// ["pharmacydomain"] phrase=false parts=["pharmacy" "domain"] prefix=false
	// ["kube"] phrase=false parts=[] prefix=true
	// excluded ["java"]
	// okfindex/okf-index okfindex/okf-index
}
