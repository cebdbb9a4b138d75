package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of Expand: a bundle's text is long, its extra words must not be.
const (
	// MaxExpandInput is how many bytes of text Expand reads.
	MaxExpandInput = 16 << 10
	// MaxExpandOutput is the most bytes Expand returns.
	MaxExpandOutput = 8 << 10
)

// Expand returns the words Postgres's default parser would not make of text
// by itself, space-separated, "" when there are none, so that
// text + " " + Expand(text) indexes them all:
//   - the parts of words split at case and letter/digit boundaries
//     ("PharmacyDomain" -> "Pharmacy Domain", "web3" -> "web 3");
//   - the parts of tokens joined by '.', '/' or ':' ("okf.index" ->
//     "okf index"), each camel-split as well;
//   - each run of Han, Hiragana, Katakana and Hangul characters as
//     overlapping bigrams ("大模型研究" -> "大模 模型 型研 研究"); a run of one
//     or two characters standing alone is already a word of its own;
//   - the words of a name joined by '-', '_' or '.' written together
//     ("kf-cpto" -> "kfcpto", "node.js" -> "nodejs"), as people type a
//     name they read with its punctuation left out (gluedWords);
//   - the word of a name written with symbols ("C++" -> "cpp", ".NET" ->
//     "dotnet": symbolNames), which the parser makes "c" and "net".
//
// The words of one token stay together and in order, so a query's parts
// match them as a phrase; a token whose words were already given is not
// repeated. Expand reads at most MaxExpandInput bytes and returns at most
// MaxExpandOutput, cut at a word boundary.
func Expand(text string) string {
	text = prefixBytes(text, MaxExpandInput)
	out := expansion{}
	for token := range tokens(text) {
		if word, _, _, ok := symbolName(token); ok {
			if !out.add([]string{word}) {
				break
			}
			continue
		}
		if plainASCII(token) {
			continue // the parser makes it whole, and it has no parts
		}
		if !out.add(tokenExpansion(token)) {
			break
		}
	}
	return out.b.String()
}

// tokens yields the runs of text between white space. Every bundle's text
// goes through Expand and Language on each write, so they read it without
// allocating a token at a time.
func tokens(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range text {
			if unicode.IsSpace(r) {
				if start >= 0 && !yield(text[start:i]) {
					return
				}
				start = -1
			} else if start < 0 {
				start = i
			}
		}
		if start >= 0 {
			yield(text[start:])
		}
	}
}

// plainASCII reports whether token is ASCII with nothing for Expand to add:
// no capital inside a word ("PharmacyDomain"), no digit beside a letter
// ("web3") and no '.', '/', ':', '-' or '_' between word characters
// ("okf.index", "kf-cpto").
// Most words of a text are; the rest go the long way (tokenExpansion).
func plainASCII(token string) bool {
	alnum := func(i int) bool {
		if i < 0 || i >= len(token) {
			return false
		}
		c := token[i]
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	letter := func(i int) bool { return alnum(i) && (token[i] < '0' || token[i] > '9') }
	for i := 0; i < len(token); i++ {
		switch c := token[i]; {
		case c >= utf8.RuneSelf:
			return false
		case 'A' <= c && c <= 'Z':
			if alnum(i - 1) {
				return false
			}
		case '0' <= c && c <= '9':
			if letter(i-1) || letter(i+1) {
				return false
			}
		case c == '.' || c == '/' || c == ':' || c == '-' || c == '_':
			if alnum(i-1) && alnum(i+1) {
				return false
			}
		}
	}
	return true
}

// tokenExpansion returns the words Expand adds for one token, in order:
// its parts, then its glued words.
func tokenExpansion(token string) []string {
	runs, pathJoined := tokenRuns(token)
	var words []string
	for _, run := range runs {
		parts := wordParts(run)
		if !pathJoined && len(parts) == 1 && !(isCJK(firstRune(run)) && len([]rune(run)) > 2) {
			continue // a plain word or a short CJK word: the parser makes it
		}
		for _, part := range parts {
			if isCJK(firstRune(part)) {
				words = append(words, bigrams(part)...)
			} else {
				words = append(words, part)
			}
		}
	}
	return append(words, gluedWords(token)...)
}

// maxGluedRunes bounds a glued word: a name's words, not a sentence's.
const maxGluedRunes = 32

// gluedWords returns the words of each stretch of token whose runs of
// letters and digits are joined by single '-', '_' or '.', written
// together: "kf-cpto" -> kfcpto, "Qwen-TTS" -> QwenTTS, "node.js" ->
// nodejs, "utf-8" -> utf8. A stretch is glued when it has two runs or
// more, its first run holds a letter (not a date or a version number) and
// it makes at most maxGluedRunes characters, and it is no file name or
// version (fileOrVersion); '/' and ':' end a stretch
// (the parts of a path or of owner/repo are glued each), and a URL has
// none (its host is no name). Marks are dropped, as from runs.
func gluedWords(token string) []string {
	if !strings.ContainsAny(token, "-_.") || strings.Contains(token, "://") {
		return nil
	}
	var glued []string
	// A stretch is token[from:to]: runs, the runs it holds so far; inRun,
	// whether a run is open; last, where its last run starts.
	from, to, last, runs, inRun := -1, -1, -1, 0, false
	letterFirst := false
	flush := func() {
		if runs >= 2 && letterFirst && !fileOrVersion(token[from:to], token[last:to]) {
			w := strings.Map(func(r rune) rune {
				if isWordRune(r) {
					return r
				}
				return -1
			}, token[from:to])
			if utf8.RuneCountInString(w) <= maxGluedRunes {
				glued = append(glued, w)
			}
		}
		from, runs, inRun, letterFirst = -1, 0, false, false
	}
	for i, r := range token {
		switch {
		case isWordRune(r) && !isCJK(r):
			if !inRun {
				if from < 0 {
					from = i
				}
				last = i
				runs++
				inRun = true
			}
			if runs == 1 && unicode.IsLetter(r) {
				letterFirst = true
			}
			to = i + utf8.RuneLen(r)
		case isMark(r):
		case (r == '-' || r == '_' || r == '.') && inRun:
			inRun = false
		default:
			flush()
		}
	}
	flush()
	return glued
}

// fileExtensions are the endings of file names that descriptions cite
// ("index.md", "bank.json"): a file name glued is no name people type.
var fileExtensions = setOf("md", "markdown", "json", "jsonl", "yaml", "yml", "toml", "txt", "csv",
	"html", "xml", "sql", "py", "go", "rs", "ts", "tsx", "jsx", "mjs", "cjs", "sh", "rb", "java",
	"kt", "swift", "c", "h", "cpp", "hpp", "cs", "php", "lock", "png", "jpg", "svg", "pdf")

// fileOrVersion reports whether stretch, whose last run is lastRun, is a
// file name ("index.md") or a version ("v0.2"), which gluedWords leaves
// alone.
func fileOrVersion(stretch, lastRun string) bool {
	if _, ok := fileExtensions[strings.ToLower(lastRun)]; ok && strings.Contains(stretch, ".") {
		return true
	}
	return (stretch[0] == 'v' || stretch[0] == 'V') && len(stretch) > 1 && '0' <= stretch[1] && stretch[1] <= '9'
}

// expansion accumulates Expand's output within MaxExpandOutput.
type expansion struct {
	b    strings.Builder
	seen map[string]struct{}
}

// add appends words unless the same words (in any case) were added before,
// and reports whether there is room for more.
func (e *expansion) add(words []string) bool {
	if len(words) == 0 {
		return true
	}
	key := strings.ToLower(strings.Join(words, " "))
	if _, dup := e.seen[key]; dup {
		return true
	}
	if e.seen == nil {
		e.seen = make(map[string]struct{})
	}
	e.seen[key] = struct{}{}
	for _, w := range words {
		need := len(w)
		if e.b.Len() > 0 {
			need++
		}
		if e.b.Len()+need > MaxExpandOutput {
			return false
		}
		if e.b.Len() > 0 {
			e.b.WriteByte(' ')
		}
		e.b.WriteString(w)
	}
	return true
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return -1
}
