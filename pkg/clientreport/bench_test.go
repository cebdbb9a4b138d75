package clientreport

import (
	"strings"
	"testing"
)

// A realistic stack at the cap and a plain message: the cost of a report is
// almost all redaction.
var (
	benchStack = strings.Repeat("    at loadList (https://okf.example/assets/app-3f2a1c.js?v=7:120:15)\n    at async Promise.all (index 0)\n", 120)
	benchMsg   = "TypeError: Cannot read properties of undefined (reading 'map')"
)

func BenchmarkRedactStack(b *testing.B) {
	for b.Loop() {
		redact(benchStack)
	}
}

func BenchmarkRedactMessage(b *testing.B) {
	for b.Loop() {
		redact(benchMsg)
	}
}

func BenchmarkRedactWorstCase(b *testing.B) {
	s := strings.Repeat("a@b.c1.2.3.4:5::6+7 (8) 9-0 eyJ=x", MaxBodyBytes/34)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		redact(s)
	}
}
