package partners

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Micros is an amount of USD in integer micro-dollars (1e-6 USD). In the
// file it is a plain decimal (150, 150.00, "0.10"; at most six decimals,
// never negative), read from the YAML node's raw text, so no float is ever
// involved; in JSON it is the same exact decimal as a number (150, 0.1),
// the contract's USD list price.
type Micros int64

// maxMicros bounds a price: a billion dollars is no list price, and the
// bound keeps every sum of prices far from int64's limit.
const maxMicros = 1_000_000_000 * 1_000_000

// decimalUSD is the accepted text of an amount.
var decimalUSD = regexp.MustCompile(`^(0|[1-9][0-9]{0,9})(\.[0-9]{1,6})?$`)

// ParseMicros reads a decimal USD amount ("150", "150.00", "0.1").
func ParseMicros(s string) (Micros, error) {
	if strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("%q is negative", s)
	}
	if !decimalUSD.MatchString(s) {
		return 0, fmt.Errorf("%q is not a USD amount (digits, at most six decimals: 150 or 150.00 or 0.10)", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	frac += strings.Repeat("0", 6-len(frac))
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, err)
	}
	m := w*1_000_000 + f
	if m > maxMicros {
		return 0, fmt.Errorf("%q is over a billion dollars", s)
	}
	return Micros(m), nil
}

// UnmarshalYAML reads an amount from a scalar of the file: an integer, a
// decimal or a string holding one (the raw text, never a float).
func (m *Micros) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a USD amount is a number such as 150.00", n.Line)
	}
	switch n.ShortTag() {
	case "!!int", "!!float", "!!str":
	default:
		return fmt.Errorf("line %d: %q is not a USD amount", n.Line, n.Value)
	}
	v, err := ParseMicros(strings.TrimSpace(n.Value))
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*m = v
	return nil
}

// String writes the amount as the shortest exact decimal: 150, 0.1, 12.345678.
func (m Micros) String() string {
	s := fmt.Sprintf("%d.%06d", int64(m)/1_000_000, int64(m)%1_000_000)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// MarshalJSON writes the amount as an exact JSON number.
func (m Micros) MarshalJSON() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalJSON reads an amount from an exact JSON number (the form
// MarshalJSON writes), for clients of the document written in Go.
func (m *Micros) UnmarshalJSON(b []byte) error {
	v, err := ParseMicros(string(b))
	if err != nil {
		return fmt.Errorf("partners: %w", err)
	}
	*m = v
	return nil
}
