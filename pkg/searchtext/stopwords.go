package searchtext

import (
	"embed"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// stopwordFS holds Postgres's stop word lists (see stopwords/README.md).
//
//go:embed stopwords/*.stop
var stopwordFS embed.FS

// stopSets maps each stemming configuration to its stop words, folded.
// Built once at start-up from the embedded files; read-only afterwards.
var stopSets = loadStopSets()

func loadStopSets() map[string]map[string]struct{} {
	sets := make(map[string]map[string]struct{}, len(stopFiles))
	for config, file := range stopFiles {
		data, err := stopwordFS.ReadFile("stopwords/" + file)
		if err != nil {
			// The files are embedded at build time: a missing one is a
			// broken build, not a run-time condition.
			panic("searchtext: embedded stop words: " + err.Error())
		}
		set := make(map[string]struct{})
		for _, line := range strings.Split(string(data), "\n") {
			if w := fold(strings.TrimSpace(line)); w != "" {
				set[w] = struct{}{}
			}
		}
		sets[config] = set
	}
	return sets
}

// isStopWord reports whether word is a stop word of config. Unknown configs
// (Simple) have none.
func isStopWord(config, word string) bool {
	_, ok := stopSets[config][fold(word)]
	return ok
}

// fold lowercases word and removes its accents the way the configurations'
// unaccent dictionary does before stop words are looked up, so "Não" and
// "nao" are the same stop word: NFD, then runes of category Mn dropped.
// The one exception is the breve of Cyrillic й, which unaccent keeps (it is
// a letter of its own in Russian, not an accented и); and the dotless ı,
// which has no accent to drop but which unaccent maps to i.
func fold(word string) string {
	if isASCII(word) {
		return strings.ToLower(word)
	}
	var b strings.Builder
	b.Grow(len(word))
	prev := rune(-1)
	for _, r := range norm.NFD.String(strings.ToLower(word)) {
		if unicode.Is(unicode.Mn, r) && !(r == '\u0306' && (prev == 'и' || prev == 'И')) {
			continue
		}
		if r == 'ı' { // Turkish dotless i: no accent to drop, but unaccent maps it to i
			r = 'i'
		}
		b.WriteRune(r)
		prev = r
	}
	return norm.NFC.String(b.String())
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
