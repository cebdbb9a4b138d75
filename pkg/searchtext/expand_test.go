package searchtext

import (
	"strconv"
	"testing"
)

var expandCases = []struct {
	name, text, want string
}{
	{"empty", "", ""},
	{"names written with symbols", "Modern C++ (C++17), C#, F#. and .NET", "cpp csharp fsharp dotnet"},
	{"other symbols", "c+ a+b #tag net.", ""},
	{"plain words add nothing", "hello Hello HELLO decorators", ""},
	{"hyphen compound glued (the parser splits it itself)", "react-native", "reactnative"},
	{"underscore compound glued", "snake_case_name", "snakecasename"},
	{"hyphen compound with capitals glued as written", "Qwen-TTS", "QwenTTS"},
	{"letters and digits glued", "utf-8 python3-client", "utf8 python 3 python3client"},
	{"dates and versions are not glued", "2026-06-29 0.7.x", "0 7 x"},
	{"a double hyphen or a leading one joins nothing", "--flag a--b", ""},
	{"a trailing joiner joins nothing", "end. more-", ""},
	{"owner/repo: each part glued", "Katty-Fashion/kf-cpto", "Katty Fashion kf cpto KattyFashion kfcpto"},
	{"file names and versions are not glued", "index.md bank.JSON v0.2 V1.3-beta", "index md bank JSON v 0 2 V 1 3 beta"},
	{"too long to be a name", "one-two-three-four-five-six-seven-eight-nine", ""},
	{"sentence punctuation", "Hello, world. It works!", ""},
	{"PascalCase", "PharmacyDomain", "Pharmacy Domain"},
	{"camelCase with digit", "okfIndex2", "okf Index 2"},
	{"acronym at the end", "RouterOS", "Router OS"},
	{"acronym then word", "XMLHttpRequest", "XML Http Request"},
	{"letters then digits", "web3", "web 3"},
	{"digits then letters", "3D", "3 D"},
	{"dotted", "okf.index", "okf index okfindex"},
	{"dotted library", "node.js", "node js nodejs"},
	{"slashed", "owner/repo", "owner repo"},
	{"colon", "urn:okf", "urn okf"},
	{"dotted parts camel-split", "okf.IndexStore", "okf Index Store okfIndexStore"},
	{"hyphen compound with a camel part", "React-NativeApp", "Native App ReactNativeApp"},
	{"URL", "https://github.com/Owner/Repo.git", "https github com Owner Repo git"},
	{"Chinese run as bigrams", "大模型研究", "大模 模型 型研 研究"},
	{"two-character run is its own word", "模型", ""},
	{"Japanese kana and kanji in one run", "設計ガイドライン", "設計 計ガ ガイ イド ドラ ライ イン"},
	{"Korean words", "한국어 검색 엔진", "한국 국어"},
	{"Latin then CJK in one token", "AI大模型", "AI 大模 模型"},
	{"one CJK character after Latin", "v大", "v 大"},
	{"mixed text", "OKF 大模型 notes", "大模 模型"},
	{"repeated token once", "PharmacyDomain and PharmacyDomain, pharmacyDomain", "Pharmacy Domain"},
	{"words of one token stay together", "okfIndex XMLHttp", "okf Index XML Http"},
	{"accents kept", "CaféBar", "Café Bar"},
	{"Cyrillic camel", "ПриветМир", "Привет Мир"},
	{"combining marks dropped", "Cafe\u0301Bar", "Cafe Bar"},
}

func TestExpand(t *testing.T) {
	for _, tt := range expandCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := Expand(tt.text); got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestExpandBounds(t *testing.T) {
	// Past MaxExpandInput nothing is read.
	long := repeatToLen("plain ", MaxExpandInput) + " PharmacyDomain"
	if got := Expand(long); got != "" {
		t.Errorf("Expand read past MaxExpandInput: %q", got)
	}
	// Distinct split words overflow MaxExpandOutput: the output is cut
	// between words.
	var text []byte
	for i := 0; len(text) < MaxExpandInput; i++ {
		text = append(text, []byte("okfIndex"+strconv.Itoa(i)+" ")...)
	}
	got := Expand(string(text))
	if len(got) > MaxExpandOutput || len(got) < MaxExpandOutput-64 {
		t.Fatalf("len(Expand) = %d, want a little under %d", len(got), MaxExpandOutput)
	}
	if got[len(got)-1] == ' ' || !isWordRune(rune(got[len(got)-1])) {
		t.Errorf("Expand not cut at a word boundary: ...%q", got[len(got)-20:])
	}
}

func repeatToLen(s string, n int) string {
	b := make([]byte, 0, n+len(s))
	for len(b) < n {
		b = append(b, s...)
	}
	return string(b)
}
