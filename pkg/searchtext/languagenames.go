package searchtext

import (
	"unicode"
)

// languageNames are the names, in English and in the language itself, of
// each stemming configuration's language but English: the words a bundle
// written in it also holds (LanguageNames), so that "german recipes" finds
// "Rezepte" and "portuguese pipeline" a bundle written in Portuguese.
// English names none: nearly every bundle is in it, and "english" would
// then match most of the index instead of saying something.
var languageNames = map[string]string{
	Portuguese: "portuguese português",
	Spanish:    "spanish español castellano",
	French:     "french français",
	German:     "german deutsch",
	Italian:    "italian italiano",
	Dutch:      "dutch nederlands",
	Russian:    "russian русский",
	Turkish:    "turkish türkçe",
}

// The names of the languages Simple analyses, told apart by their scripts.
const (
	japaneseNames = "japanese 日本語"
	koreanNames   = "korean 한국어"
	chineseNames  = "chinese 中文"
)

// LanguageNames returns the words that name the language of a bundle
// analysed with lang (Language's configuration of text): the language's
// name in English and in itself, "" for English. Simple's languages are
// told by the script of text's CJK letters (of its first 8 KiB, as
// Language reads): any Hiragana or Katakana is Japanese, else Hangul
// outnumbering Han is Korean, else Han is Chinese; text of another script
// (Arabic, Greek, ...) names none.
func LanguageNames(lang, text string) string {
	if lang != Simple {
		return languageNames[lang]
	}
	var han, hangul int
	for _, r := range prefixBytes(text, languagePrefix) {
		switch {
		case r < 0x1100 || !unicode.IsLetter(r):
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return japaneseNames
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Han, r):
			han++
		}
	}
	switch {
	case hangul > 0 && hangul >= han:
		return koreanNames
	case han > 0:
		return chineseNames
	}
	return ""
}
