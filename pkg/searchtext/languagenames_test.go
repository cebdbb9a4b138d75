package searchtext

import "testing"

func TestLanguageNames(t *testing.T) {
	// The language cases' texts as Language analyses them: what each names.
	want := map[string]string{
		"Portuguese question": "portuguese português",
		"Portuguese":          "portuguese português",
		"Spanish":             "spanish español castellano",
		"French":              "french français",
		"German":              "german deutsch",
		"Italian":             "italian italiano",
		"Dutch":               "dutch nederlands",
		"stop words without accents match accented lists": "portuguese português",
		"Russian":                   "russian русский",
		"Turkish":                   "turkish türkçe",
		"Chinese":                   "chinese 中文",
		"Japanese with Latin names": "japanese 日本語",
		"Korean":                    "korean 한국어",
	}
	for _, tt := range languageCases {
		if got := LanguageNames(Language(tt.text), tt.text); got != want[tt.name] {
			t.Errorf("%s: LanguageNames(%q) = %q, want %q", tt.name, tt.text, got, want[tt.name])
		}
	}
	// Kanji alone reads as Chinese; Hangul beside a few Han characters as
	// Korean; kana anywhere as Japanese.
	for text, want := range map[string]string{
		"東京大学":         chineseNames,
		"大學 한국어 검색 엔진": koreanNames,
		"漢字ばかりの文":      japaneseNames,
	} {
		if got := LanguageNames(Simple, text); got != want {
			t.Errorf("LanguageNames(Simple, %q) = %q, want %q", text, got, want)
		}
	}
}
