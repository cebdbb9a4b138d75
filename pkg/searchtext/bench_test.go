package searchtext

import (
	"strings"
	"testing"
)

// description is a 1,000-character bundle description of the kind Expand
// reads: prose with camelCase names, dotted and slashed tokens and some CJK.
var description = func() string {
	s := "PharmacyDomain models pharmacies as DDD aggregates: Store, Staff and Patient, " +
		"with a RepositoryProtocol per aggregate. See okfindex/okf-index and node.js docs; " +
		"XMLHttpRequest calls go through the apiGateway2 client. 設計ガイドラインと実装構成をまとめた。 "
	return strings.Repeat(s, 1000/len(s)+1)[:1000]
}()

func BenchmarkExpand(b *testing.B) {
	b.SetBytes(int64(len(description)))
	for b.Loop() {
		Expand(description)
	}
}

func BenchmarkLanguage(b *testing.B) {
	b.SetBytes(int64(len(description)))
	for b.Loop() {
		Language(description)
	}
}

func BenchmarkParseQuery(b *testing.B) {
	const q = `how to integrate kubernetes with "terraform cloud" -aws PharmacyDomain 大模型 node.js`
	for b.Loop() {
		ParseQuery(q)
	}
}
