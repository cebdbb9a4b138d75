package searchtext

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Shorthands for expected terms.
func word(w string) Term               { return Term{Words: []string{w}} }
func prefix(w string) Term             { return Term{Words: []string{w}, Prefix: true} }
func phrase(words ...string) Term      { return Term{Words: words, Phrase: true} }
func split(w string, p ...string) Term { return Term{Words: []string{w}, Parts: p} }
func chunk(words ...string) Term       { return Term{Words: words, Phrase: true, Chunk: true} }
func terms(ts ...Term) []Term          { return ts }

var parseQueryCases = []struct {
	name, q  string
	terms    []Term
	excluded []Term
}{
	{"empty", "", nil, nil},
	{"whitespace", " \t\n ", nil, nil},
	{"plural untouched", "decorators", terms(prefix("decorators")), nil},
	{"names written with symbols as their words", "C++ templates (c#) .NET f#.",
		terms(word("cpp"), word("templates"), word("csharp"), word("dotnet"), word("fsharp")), nil},
	{"a symbol name excluded, or a version of it", "-c++ C++20", terms(prefix("cpp")), []Term{{Words: []string{"cpp"}}}},
	{"other symbols untouched", "c+ #tag .network", terms(word("c"), word("tag"), prefix("network")), nil},
	{"question drops English stop words", "how to integrate kubernetes with terraform",
		terms(word("integrate"), word("kubernetes"), prefix("terraform")), nil},
	{"Portuguese question drops its stop words", "como integrar finanças com planilhas",
		terms(word("integrar"), word("finanças"), prefix("planilhas")), nil},
	{"only stop words: all kept", "the who", terms(word("the"), prefix("who")), nil},
	{"or is a stop word", "postgres OR mysql", terms(word("postgres"), prefix("mysql")), nil},
	{"ends with a space: no prefix", "kubernetes ", terms(word("kubernetes")), nil},
	{"ends with punctuation: no prefix", "kubernetes?", terms(word("kubernetes")), nil},
	{"one-letter last word: no prefix", "kubernetes k", terms(word("kubernetes"), word("k")), nil},
	{"two-letter last word: prefix", "kubernetes op", terms(word("kubernetes"), prefix("op")), nil},
	{"last word a stop word: left out, no prefix", "docker compose for",
		terms(word("docker"), word("compose")), nil},
	{"quoted phrase", `"machine learning" pipelines`,
		terms(phrase("machine", "learning"), prefix("pipelines")), nil},
	{"quoted phrase keeps stop words", `"state of the art"`, terms(phrase("state", "of", "the", "art")), nil},
	{"quoted single word is a phrase", `"go"`, terms(phrase("go")), nil},
	{"unbalanced quote closes at the end", `foo "bar baz`, terms(word("foo"), phrase("bar", "baz")), nil},
	{"quote inside a token", `foo"bar baz"`, terms(word("foo"), phrase("bar", "baz")), nil},
	{"excluded word", "python -java", terms(word("python")), terms(word("java"))},
	{"excluded phrase", `databases -"big data"`, terms(word("databases")), terms(phrase("big", "data"))},
	{"excluded stop word kept", "python -the", terms(word("python")), terms(word("the"))},
	{"excluded compound", "js -react-native", terms(word("js")), terms(phrase("react", "native"))},
	{"excluded mixed token is one phrase", "-AI大模型 notes", terms(prefix("notes")), terms(phrase("ai", "大模", "模型"))},
	{"lone dash is nothing", "rust - go", terms(word("rust"), prefix("go")), nil},
	{"dash at the end is nothing", "rust -", terms(word("rust")), nil},
	{"empty excluded phrase", `rust -""`, terms(word("rust")), nil},
	{"PascalCase", "PharmacyDomain", terms(Term{Words: []string{"pharmacydomain"}, Parts: []string{"pharmacy", "domain"}, Prefix: true}), nil},
	{"camelCase with digit", "okfIndex2 docs", terms(split("okfindex2", "okf", "index", "2"), prefix("docs")), nil},
	{"acronyms", "XMLHttpRequest RouterOS ", terms(split("xmlhttprequest", "xml", "http", "request"), split("routeros", "router", "os")), nil},
	{"all caps is one word", "HTTP API ", terms(word("http"), word("api")), nil},
	{"letters and digits", "web3 ", terms(split("web3", "web", "3")), nil},
	{"digits only", "2024 ", terms(word("2024")), nil},
	{"hyphen compound", "react-native ", terms(phrase("react", "native")), nil},
	{"dotted compound", "node.js ", terms(phrase("node", "js")), nil},
	{"underscore compound", "a_b ", terms(phrase("a", "b")), nil},
	{"dotted compound camel-split", "okf.IndexStore ", terms(phrase("okf", "index", "store")), nil},
	{"compound being typed: its words apart, the last a prefix", "react-nat",
		terms(phrase("react", "nat"), word("react"), prefix("nat")), nil},
	{"dotted compound being typed", "okf.IndexSt",
		terms(phrase("okf", "index", "st"), phrase("okf", "index"), prefix("st")), nil},
	{"finished compound: phrase only", "react-native ", terms(phrase("react", "native")), nil},
	{"compound typed, last word too short", "react-n", terms(phrase("react", "n")), nil},
	{"compound typed, last word digits", "web-30", terms(phrase("web", "30")), nil},
	{"compound typed after other words", "docs kf-cp", terms(word("docs"), phrase("kf", "cp"), word("kf"), prefix("cp")), nil},
	{"compound typed, first word a stop word", "no-sl", terms(phrase("no", "sl"), prefix("sl")), nil},
	{"accents kept, case folded", "Finanças ÉCOLE ", terms(word("finanças"), word("école")), nil},
	{"Chinese run, and its two-character chunks", "大模型研究", terms(phrase("大模", "模型", "型研", "研究"), chunk("大模"), chunk("型研"), chunk("研究")), nil},
	{"Chinese run of even length", "中药配伍禁忌", terms(phrase("中药", "药配", "配伍", "伍禁", "禁忌"), chunk("中药"), chunk("配伍"), chunk("禁忌")), nil},
	{"Han run of three, no chunks", "大模型", terms(phrase("大模", "模型")), nil},
	{"one CJK character", "型", terms(phrase("型")), nil},
	{"Japanese kana and kanji, and each script's run", "設計ガイド", terms(phrase("設計", "計ガ", "ガイ", "イド"), chunk("設計"), chunk("ガイ", "イド")), nil},
	{"Japanese words written together", "真柏ジンシャリ", terms(phrase("真柏", "柏ジ", "ジン", "ンシ", "シャ", "ャリ"), chunk("真柏"), chunk("ジン", "ンシ", "シャ", "ャリ")), nil},
	{"kanji run cut in pairs", "機械学習モデル", terms(phrase("機械", "械学", "学習", "習モ", "モデ", "デル"), chunk("機械"), chunk("学習"), chunk("モデ", "デル")), nil},
	{"katakana alone, no chunks", "ナレッジベース", terms(phrase("ナレ", "レッ", "ッジ", "ジベ", "ベー", "ース")), nil},
	{"hiragana inside a word, no chunks", "書き込み", terms(phrase("書き", "き込", "込み")), nil},
	{"Korean", "한국어 검색", terms(phrase("한국", "국어"), phrase("검색")), nil},
	{"Japanese run cut at its particle", "検索の設定", terms(phrase("検索"), phrase("設定")), nil},
	{"Chinese run cut at its function words", "如何导入数据的格式", terms(phrase("导入", "入数", "数据"), chunk("导入"), chunk("数据"), phrase("格式")), nil},
	{"Korean particle cut", "서버의 설정을", terms(phrase("서버"), phrase("설정")), nil},
	{"quoted CJK run taken as written", `"検索の設定"`, terms(phrase("検索", "索の", "の設", "設定")), nil},
	{"excluded CJK run taken as written", "docs -検索の設定", terms(word("docs")), terms(phrase("検索", "索の", "の設", "設定"))},
	{"CJK and Latin", "OKF 大模型 notes", terms(word("okf"), phrase("大模", "模型"), prefix("notes")), nil},
	{"CJK inside a token", "AI大模型notes", terms(word("ai"), phrase("大模", "模型"), word("notes")), nil},
	{"half-width katakana read as the text writes it", "ﾅﾚｯｼﾞﾍﾞｰｽ", terms(phrase("ナレ", "レッ", "ッジ", "ジベ", "ベー", "ース")), nil},
	{"full-width Latin read as ASCII", "ＡＰＩ設計 ", terms(word("api"), phrase("設計")), nil},
	{"duplicates once, first kept", "go rust Go", terms(word("go"), word("rust")), nil},
	{"same words typed two ways", `react-native "react native"`, terms(phrase("react", "native")), nil},
	{"punctuation alone is nothing", "+++ ... ", nil, nil},
	// ㍃ is filed under Katakana but is a symbol, not a letter (found by fuzzing).
	{"CJK symbols are not words", "㍃ ㈀ ", nil, nil},
}

// withoutAlternatives is terms without the other words each also matches
// (spellings, acronyms: TestSpellings, TestAcronyms), and Weak unset
// (TestWeakTerms).
func withoutAlternatives(terms []Term) []Term {
	for i := range terms {
		terms[i].Spellings, terms[i].Acronyms, terms[i].Expansion, terms[i].Weak = nil, nil, "", false
	}
	return terms
}

func TestParseQuery(t *testing.T) {
	for _, tt := range parseQueryCases {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseQuery(tt.q)
			got.Terms, got.Excluded = withoutAlternatives(got.Terms), withoutAlternatives(got.Excluded)
			if !reflect.DeepEqual(got.Terms, tt.terms) {
				t.Errorf("ParseQuery(%q).Terms =\n  %+v\nwant\n  %+v", tt.q, got.Terms, tt.terms)
			}
			if !reflect.DeepEqual(got.Excluded, tt.excluded) {
				t.Errorf("ParseQuery(%q).Excluded =\n  %+v\nwant\n  %+v", tt.q, got.Excluded, tt.excluded)
			}
			if got.Repo != "" || got.Key != strings.TrimSpace(tt.q) {
				t.Errorf("ParseQuery(%q): Repo %q Key %q, want no repo and q trimmed", tt.q, got.Repo, got.Key)
			}
		})
	}
}

func TestParseQueryBounds(t *testing.T) {
	many := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron ", 2)
	q := ParseQuery(many + "-a -b -c -d -e -f -g -h -i -j -k -l -m -n")
	if len(q.Terms) != MaxTerms || q.Terms[MaxTerms-1].Words[0] != "mu" {
		t.Errorf("Terms = %d (%+v), want the first %d", len(q.Terms), q.Terms, MaxTerms)
	}
	if len(q.Excluded) != MaxTerms || q.Excluded[MaxTerms-1].Words[0] != "l" {
		t.Errorf("Excluded = %d, want %d", len(q.Excluded), MaxTerms)
	}
	for _, tt := range q.Terms {
		if tt.Prefix {
			t.Errorf("Prefix on %v, a term that is not q's last", tt.Words)
		}
	}

	long := strings.Repeat("x", 100)
	if got := ParseQuery(long).Terms[0].Words[0]; got != long[:maxWordRunes] {
		t.Errorf("a 100-letter word became %d letters, want %d", len(got), maxWordRunes)
	}
	longCJK := strings.Repeat("大模型", 20)
	if got := ParseQuery(longCJK).Terms[0].Words; len(got) != maxTermWords {
		t.Errorf("a 60-character CJK run gave %d words, want %d", len(got), maxTermWords)
	}
	phraseOf20 := `"` + strings.Repeat("w ", 20) + `"`
	if got := ParseQuery(phraseOf20).Terms[0].Words; len(got) != maxTermWords {
		t.Errorf("a 20-word phrase gave %d words, want %d", len(got), maxTermWords)
	}
	// Past maxQueryBytes nothing is read.
	if got := ParseQuery(strings.Repeat(" ", maxQueryBytes) + "hidden"); got.Terms != nil || got.Key != "" {
		t.Errorf("ParseQuery read past %d bytes: %+v", maxQueryBytes, got)
	}
}

func TestWeakTerms(t *testing.T) {
	for _, c := range []struct {
		q    string
		weak []bool
	}{
		{"fahrstrassenbildung im relaisstellwerk", []bool{false, true, false}},
		{"ai agents", []bool{false, false}},                               // an acronym
		{"wie funktioniert die fahrstraßenbildung", []bool{false, false}}, // German: its stop words left out
		{"im die", []bool{false, false}},                                  // stop words alone count alike
	} {
		var got []bool
		for _, term := range ParseQuery(c.q).Terms {
			got = append(got, term.Weak)
		}
		if !slices.Equal(got, c.weak) {
			t.Errorf("%q: weak %v, want %v", c.q, got, c.weak)
		}
	}
}
