package wire

import "fmt"

// ProductID names this product in the house's shared documents (the
// credit movements' produto, the usage documents' app).
const ProductID = "okf"

// USD writes micro-dollars as the contract's decimal USD string, with two
// decimals or more when needed ("0.10", "1.00", "0.0015"). Money is
// integer micro-dollars everywhere else.
func USD(micros int64) string {
	s := fmt.Sprintf("%d.%06d", micros/1_000_000, micros%1_000_000)
	for len(s) > len("0.00") && s[len(s)-1] == '0' && s[len(s)-3] != '.' {
		s = s[:len(s)-1]
	}
	return s
}
