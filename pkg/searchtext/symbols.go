package searchtext

import (
	"slices"
	"strings"
	"unicode"
)

// symbolNames are names written with symbols that Postgres's parser drops
// ("C++" is the word "c", ".NET" the word "net"), as the words people also
// write them with: a text holding one also holds the word (Expand), and a
// query's one is looked up as the word (ParseQuery), so that "c++" finds
// "Modern C++ Templates" before "C64 Assembly" and "c#" finds C#.
var symbolNames = map[string]string{
	"c++":  "cpp",
	"c#":   "csharp",
	"f#":   "fsharp",
	".net": "dotnet",
}

// symbolMarks are the characters of symbolNames that are no word's.
const symbolMarks = "+#."

// symbolName returns the word of token's symbol name (symbolNames,
// case-insensitively, with a version after "c++": "C++20"), and where in
// token the name stands, once the punctuation around it is trimmed
// ("(C#)," -> csharp); ok is false for any other token. Every symbol name
// holds one of symbolMarks: a token without one, most of a text's, is no
// symbol name, and Expand reads every token of every bundle.
func symbolName(token string) (word string, start, end int, ok bool) {
	if !strings.ContainsAny(token, symbolMarks) {
		return "", 0, 0, false
	}
	start = strings.IndexFunc(token, func(r rune) bool { return !strings.ContainsRune(`-("'[{“‘`, r) })
	if start < 0 {
		return "", 0, 0, false
	}
	end = strings.LastIndexFunc(token, func(r rune) bool { return !strings.ContainsRune(`)"'\]},;:!?.”’`, r) }) + 1
	if end <= start {
		return "", 0, 0, false
	}
	core := strings.ToLower(token[start:end])
	if rest, found := strings.CutPrefix(core, "c++"); found && strings.TrimFunc(rest, unicode.IsDigit) == "" {
		return symbolNames["c++"], start, end, true
	}
	if word, found := symbolNames[core]; found {
		return word, start, end, true
	}
	return "", 0, 0, false
}

// withSymbolNames returns q with each token that is a symbol name
// (symbolName) written as its word, the punctuation around it kept.
func withSymbolNames(q string) string {
	if !strings.ContainsAny(q, symbolMarks) {
		return q
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(q); {
		j := strings.IndexFunc(q[i:], unicode.IsSpace)
		if j < 0 {
			j = len(q) - i
		}
		token := q[i : i+j]
		if word, start, end, ok := symbolName(token); ok {
			b.WriteString(token[:start] + word + token[end:])
			changed = true
		} else {
			b.WriteString(token)
		}
		i += j
		k := strings.IndexFunc(q[i:], func(r rune) bool { return !unicode.IsSpace(r) })
		if k < 0 {
			k = len(q) - i
		}
		b.WriteString(q[i : i+k])
		i += k
	}
	if !changed {
		return q
	}
	return b.String()
}

// SymbolNames returns the names written with symbols (symbolNames) that q
// holds as tokens, as q writes them ("C++" of "Modern C++ (C++17)"), at
// most once each, case-insensitively: what a highlighter marks besides
// q's words, which hold no symbol.
func SymbolNames(q string) []string {
	var out []string
	for _, token := range strings.Fields(q) {
		if _, start, end, ok := symbolName(token); ok && !slices.ContainsFunc(out, func(s string) bool {
			return strings.EqualFold(s, token[start:end])
		}) {
			out = append(out, token[start:end])
		}
	}
	return out
}
