package okf

import "bytes"

// maxParseUnits bounds the markdown parser's work on one root. The parser
// (gomarkdown, CommonMark mode) costs roughly 0.2 to 1.5 µs per line and per
// markdown punctuation byte, and re-reads nested container content once per
// nesting level, so 2 MiB of adversarial input (a million emphasis markers,
// 75,000 one-word list items, 64 nested lists opened on every line) takes
// up to seconds. Parse hands the parser only the lines that fit this budget
// and marks the card Truncated when it cuts.
//
// A line costs one unit plus one per punctuation byte, times a depth factor
// (see depthFactor); a blank line costs one unit. The budget is about 100 ms
// of parser work. Real roots stay below it: the 1.5 MB databricks root uses
// about 46,000 units, a generated 2 MiB root with 10,000 entries about
// 88,000, the other corpus roots under 2,000.
const maxParseUnits = 120_000

// maxNestingDepth is where the parser stops nesting containers.
const maxNestingDepth = 64

// punctuation marks the bytes that start or end inline markdown constructs.
var punctuation = func() (t [256]bool) {
	for _, c := range []byte("*_`[]<>!|~&\\():#") {
		t[c] = true
	}
	return t
}()

// parseLimit returns how many bytes of body fit maxParseUnits, cut at the
// start of the first line that does not fit.
//
// The depth that weighs a line is the deepest nesting estimated since the
// last blank line: lines that continue a deep container lazily carry no
// markers of their own, while a blank line followed by a line of its own
// depth closes what lay deeper.
func parseLimit(body []byte) int {
	units, depth, blank := 0, 0, false
	for off := 0; off < len(body); {
		line, next := body[off:], len(body)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], off+i+1
		}
		cost := 1
		if len(bytes.TrimSpace(line)) == 0 {
			blank = true
		} else {
			own := min(prefixDepth(line), maxNestingDepth)
			if blank {
				depth, blank = own, false
			}
			depth = max(depth, own)
			for _, c := range line {
				if punctuation[c] {
					cost++
				}
			}
			cost *= depthFactor(depth)
		}
		units += cost
		if units > maxParseUnits {
			return off
		}
		off = next
	}
	return len(body)
}

// depthFactor grows with the square of the nesting depth, as the parser's
// cost does for lines that open many containers (measured: about 8 µs a
// line at 8 levels, 60 µs at 32, 170 µs at 64): 1 up to depth 4, 3 at 8,
// 11 at 16, 43 at 32, 171 at the parser's limit of 64 levels.
func depthFactor(depth int) int {
	return 1 + depth*depth/24
}

// prefixDepth estimates how deeply a line nests containers from its leading
// block quote markers ('>'), list markers ("-", "*", "+", "1.", "1)" followed
// by a space) and indentation (two columns per level, as list items nest).
func prefixDepth(line []byte) int {
	depth, markers, columns := 0, 0, 0
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ':
			columns++
			i++
		case c == '\t':
			columns += 4
			i++
		case c == '>':
			depth++
			i++
		case c == '-' || c == '*' || c == '+':
			if !markerEnd(line, i+1) {
				return total(depth, markers, columns)
			}
			markers++
			i++
		case '0' <= c && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && '0' <= line[j] && line[j] <= '9' {
				j++
			}
			if j >= len(line) || line[j] != '.' && line[j] != ')' || !markerEnd(line, j+1) {
				return total(depth, markers, columns)
			}
			markers++
			i = j + 1
		default:
			return total(depth, markers, columns)
		}
	}
	return total(depth, markers, columns)
}

// markerEnd reports whether a list marker ending before line[i] is followed
// by a space, a tab or the end of the line.
func markerEnd(line []byte, i int) bool {
	return i >= len(line) || line[i] == ' ' || line[i] == '\t'
}

// total combines prefixDepth's counts.
func total(quotes, markers, columns int) int {
	return quotes + markers + columns/2
}
