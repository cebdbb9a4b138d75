package vitrine

import (
	"strconv"
	"strings"
)

// Rounding of the public projection (contract 2.8): every value to two
// significant digits. The operator's document keeps the exact values.

// Round2 rounds a count to two significant digits, halves away from zero:
// 7 stays 7, 1234 is 1200, 1250 is 1300, 0 stays 0.
func Round2(n int64) int64 {
	if n < 0 {
		return -Round2(-n)
	}
	if n < 100 {
		return n
	}
	p := int64(1)
	for m := n; m >= 100; m /= 10 {
		p *= 10
	}
	return (n + p/2) / p * p
}

// round2Float rounds a share to two significant digits (0.12345 is 0.12).
func round2Float(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 2, 64), 64)
	return v
}

// complementShare is 1 - bad/total with the bad share rounded to two
// significant digits, computed in decimal so that 1 - 0.0013 is exactly
// 0.9987: a share of good requests near 1 rounded itself to two
// significant digits would say 1.0 and hide every failure.
func complementShare(bad, total int64) float64 {
	if bad == 0 {
		return 1
	}
	e := round2Float(float64(bad) / float64(total))
	// e has at most two significant digits: e = m / 10^k exactly.
	s := strconv.FormatFloat(e, 'f', -1, 64)
	k := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		k = len(s) - i - 1
	}
	den := int64(1)
	for range k {
		den *= 10
	}
	m := int64(e*float64(den) + 0.5)
	return float64(den-m) / float64(den)
}
