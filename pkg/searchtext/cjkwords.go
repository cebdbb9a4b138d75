package searchtext

import (
	"unicode"
	"unicode/utf8"
)

// A query written in Chinese or Japanese has no spaces, and Korean puts
// its particles on the word: one CJK run of a query often holds several
// words and the function words between them ("認証の設計", "智能体的执行流程",
// "성경의"). The index holds a run's bigrams, and the phrase of the whole
// run's bigrams is found only where the text says exactly that. So an
// unquoted run of a query is cut where such a function word stands, and each
// piece is a phrase of its own: "認証の設計" looks for 認証 and 設計, as
// "authentication design" does in English. Every piece is a substring of
// the run, so a bundle holding the run still holds every piece: cutting
// never loses a bundle the whole run finds, and the bundles holding all
// the pieces still come before those holding some (words are optional).

// jaParticles are the hiragana particles and light endings that stand
// between the words of a Japanese query. Only a particle that ends a run of
// hiragana is cut out: hiragana inside a word ("書き込み", "お知らせ") is
// left alone.
var jaParticles = setOf(
	"の", "は", "が", "を", "に", "へ", "で", "と", "も", "や", "か",
	"から", "まで", "より", "など", "では", "には", "とは", "での", "への", "との", "にも", "でも",
	"について", "による", "により", "として", "ための", "ため", "って", "という",
	"する", "します", "して", "した", "され", "される", "された", "できる", "ですか", "です", "ます",
)

// zhFunctionWords are Chinese function and question words (simplified and
// traditional) that join the words of a query: "的", "和", "如何", "怎么".
// Longer ones are tried first.
var zhFunctionWords = setOf(
	"为什么", "為什麼", "如何", "怎么", "怎麼", "怎样", "怎樣", "什么", "什麼", "哪些", "哪个", "哪個",
	"是否", "可以", "以及", "还是", "還是", "或者", "关于", "關於",
	"的", "之", "和", "与", "與", "及", "或", "了", "吗", "嗎", "呢", "是", "在",
)

// koParticles are the Korean particles (josa) a word of a query may end
// with: "성경의" is 성경 and 의. Only a run's end is cut, and only when two
// syllables at least remain; longer particles are tried first.
var koParticles = setOf(
	"에서는", "으로는", "이라는", "에게서",
	"에서", "에게", "으로", "에는", "까지", "부터", "처럼", "보다", "라는", "이나", "하는", "하기",
	"의", "은", "는", "을", "를", "에", "와", "과", "도", "로", "이", "가",
)

// maxFunctionRunes is the longest entry of the lists above.
const maxFunctionRunes = 4

func setOf(words ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

// cjkWords cuts a CJK run of a query into the words it holds, as described
// above: Japanese particles and Chinese function words between them left
// out, a Korean particle cut from the end. A piece is kept only when it has
// two characters or more (a single character is in the index only where it
// stands alone); a cut that would leave a piece of one character is not
// made. A run with nothing to cut, of two characters or fewer, or made of
// function words only, is returned whole.
func cjkWords(run string) []string {
	runes := []rune(run)
	if len(runes) <= 2 {
		return []string{run}
	}
	if isHangulRun(runes) {
		return []string{string(trimKoParticle(runes))}
	}
	var words []string
	start := 0 // of the piece being read
	for i := 0; i < len(runes); {
		n := functionWordAt(runes, i)
		if n == 0 {
			i++
			continue
		}
		// A cut must leave no piece of a single character on either side.
		before, after := i-start, pieceAfter(runes, i+n)
		if before == 1 || after == 1 {
			i++
			continue
		}
		if before > 0 {
			words = append(words, string(runes[start:i]))
		}
		i += n
		start = i
	}
	if start == 0 {
		return []string{run}
	}
	if start < len(runes) {
		words = append(words, string(runes[start:]))
	}
	if len(words) == 0 {
		return []string{run}
	}
	return words
}

// functionWordAt returns the length in runes of the function word that
// starts runes[i:], 0 when none does: a particle that ends a run of
// hiragana (the whole run, or its end after a word's own hiragana:
// "書き込みの" is 書き込み and の), or the longest Chinese function word.
func functionWordAt(runes []rune, i int) int {
	if isHiragana(runes[i]) {
		end := i
		for end < len(runes) && isHiragana(runes[end]) {
			end++
		}
		if end-i <= maxFunctionRunes {
			if _, ok := jaParticles[string(runes[i:end])]; ok {
				return end - i
			}
		}
		return 0
	}
	for n := min(maxFunctionRunes, len(runes)-i); n > 0; n-- {
		if _, ok := zhFunctionWords[string(runes[i:i+n])]; ok {
			return n
		}
	}
	return 0
}

// pieceAfter is the length of the piece that would follow a cut at
// runes[from:]: up to the next function word or the run's end.
func pieceAfter(runes []rune, from int) int {
	for j := from; j < len(runes); j++ {
		if functionWordAt(runes, j) > 0 {
			return j - from
		}
	}
	return len(runes) - from
}

// trimKoParticle cuts a particle from the end of a Hangul word of three
// syllables or more, leaving two at least.
func trimKoParticle(runes []rune) []rune {
	for n := min(maxFunctionRunes, len(runes)-2); n > 0; n-- {
		if _, ok := koParticles[string(runes[len(runes)-n:])]; ok {
			return runes[:len(runes)-n]
		}
	}
	return runes
}

func isHangulRun(runes []rune) bool {
	for _, r := range runes {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return true
}

func isHiragana(r rune) bool {
	return r >= utf8.RuneSelf && unicode.Is(unicode.Hiragana, r)
}

// A piece with no function word in it is often several words written
// together: in Chinese "中药配伍禁忌" is 中药, 配伍 and 禁忌, in Japanese
// "真柏ジンシャリ" is 真柏 and ジンシャリ, a kanji word and a katakana one; a
// text may write them apart ("中药的…配伍禁忌"). So such a piece also looks
// for its chunks (cjkChunks): its runs of one script (Han, Katakana,
// Hiragana) where it mixes them, and a run of four to maxHanChunkedRunes Han
// characters cut in two-character pieces (most Chinese words, and the
// kanji compounds of Japanese, are two characters; the last piece overlaps
// the one before when the run is odd). Each chunk is a term of its own,
// which the whole piece holds, so a bundle holding the piece holds them
// all and still comes first, and one holding some of the chunks is found
// too, after it (words are optional). A chunk of one character is not
// looked for: the index holds a character alone only where it stands
// alone.
const (
	maxHanChunkedRunes = 12
	maxChunkedRunes    = 24
)

// cjkChunks are the chunks of piece described above; nil for a piece of
// one script that is not a Han run of four characters or more, for a
// Hangul piece, and for one longer than maxChunkedRunes.
func cjkChunks(piece string) []string {
	runes := []rune(piece)
	if len(runes) < 3 || len(runes) > maxChunkedRunes || isHangulRun(runes) {
		return nil
	}
	var out []string
	start := 0
	for i := 1; i <= len(runes); i++ {
		if i < len(runes) && cjkScript(runes[i]) == cjkScript(runes[start]) {
			continue
		}
		run := runes[start:i]
		switch {
		case cjkScript(run[0]) == scriptHan && len(run) >= 4 && len(run) <= maxHanChunkedRunes:
			out = append(out, hanPairs(run)...)
		case len(run) >= 2 && len(run) < len(runes):
			out = append(out, string(run))
		}
		start = i
	}
	return out
}

// hanPairs cuts a run of Han characters in two-character pieces, the last
// one overlapping the one before when the run is odd.
func hanPairs(run []rune) []string {
	var out []string
	for i := 0; i+2 <= len(run); i += 2 {
		out = append(out, string(run[i:i+2]))
	}
	if len(run)%2 == 1 {
		out = append(out, string(run[len(run)-2:]))
	}
	return out
}

// The scripts cjkChunks cuts a piece between.
const (
	scriptOther = iota
	scriptHan
	scriptKatakana
	scriptHiragana
)

func cjkScript(r rune) int {
	switch {
	case unicode.Is(unicode.Han, r):
		return scriptHan
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return scriptKatakana
	case unicode.Is(unicode.Hiragana, r):
		return scriptHiragana
	}
	return scriptOther
}
