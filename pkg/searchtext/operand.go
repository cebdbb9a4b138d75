package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// operand is one unit of a query as typed: a space-separated token or a
// quoted phrase, perhaps excluded with a leading '-'.
type operand struct {
	text     string
	quoted   bool
	excluded bool
	// last marks the query's final operand when the query ends inside it,
	// with a letter or digit: the one operand whose word may be unfinished.
	last bool
}

// operands cuts q into its operands. A '"' opens a phrase wherever it is
// and the next '"' (or the end of q) closes it; '-' excludes the operand it
// starts, and alone it is nothing.
func operands(q string) []operand {
	var ops []operand
	for i := 0; i < len(q); {
		r, size := utf8.DecodeRuneInString(q[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		op := operand{}
		if r == '-' {
			op.excluded = true
			i += size
			if i == len(q) {
				break
			}
			if r, _ = utf8.DecodeRuneInString(q[i:]); unicode.IsSpace(r) {
				continue
			}
		}
		if q[i] == '"' {
			end := strings.IndexByte(q[i+1:], '"')
			if end < 0 {
				op.text, i = q[i+1:], len(q)
			} else {
				op.text, i = q[i+1:i+1+end], i+2+end
			}
			op.quoted = true
		} else {
			end := strings.IndexFunc(q[i:], func(r rune) bool { return r == '"' || unicode.IsSpace(r) })
			if end < 0 {
				end = len(q) - i
			}
			op.text, i = q[i:i+end], i+end
			last, _ := utf8.DecodeLastRuneInString(q)
			op.last = i == len(q) && isWordRune(last)
		}
		ops = append(ops, op)
	}
	return ops
}

// terms returns what an included operand looks for. A token gives one term
// per compound and one per CJK run it holds; a quoted phrase gives one.
func (op operand) terms() []Term {
	if op.quoted {
		t, ok := phraseTerm(op.text)
		if !ok {
			return nil
		}
		return []Term{t}
	}
	terms := queryTokenTerms(op.text)
	if !op.last || len(terms) != 1 {
		return terms
	}
	t := terms[0]
	if !t.Phrase {
		t.Prefix = utf8.RuneCountInString(t.Words[0]) >= MinPrefix
		return []Term{t}
	}
	return typedCompound(t)
}

// typedCompound returns the terms of a compound being typed, the last
// operand of q ("qwen-tt", "mongodb.ent"): the compound as a phrase, as a
// finished one is, and its words apart, the last of them a prefix, so that
// the name it begins is found before it is complete ("qwen" and "tt*" find
// qwen-tts-studio). A bundle holding the phrase holds the words too: the
// bundles a finished compound finds still come first, holding every term.
// A CJK word, a compound whose last word is shorter than MinPrefix or made
// of digits ("web-3"), is taken as it is.
func typedCompound(t Term) []Term {
	n := len(t.Words)
	last := t.Words[n-1]
	if n < 2 || isCJK(firstRune(t.Words[0])) || utf8.RuneCountInString(last) < MinPrefix ||
		strings.Trim(last, "0123456789") == "" {
		return []Term{t}
	}
	rest := Term{Words: t.Words[:n-1], Phrase: n > 2}
	return []Term{t, rest, {Words: []string{last}, Prefix: true}}
}

// term returns an excluded operand as one term: excluding "AI大模型" leaves
// out the bundles holding that, not every bundle that mentions AI.
func (op operand) term() (Term, bool) {
	if op.quoted {
		return phraseTerm(op.text)
	}
	terms := tokenTerms(op.text)
	if len(terms) == 1 {
		return terms[0], true
	}
	return phraseTerm(op.text)
}
