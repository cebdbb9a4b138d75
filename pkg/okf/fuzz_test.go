package okf

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// maxSeedBytes caps the corpus files used as fuzz seeds: larger seeds slow
// every mutation down without reaching new code.
const maxSeedBytes = 64 << 10

// FuzzParse checks, for any input: no panic (a recovered parser panic would
// surface as an error other than ErrNotBundle), valid UTF-8 without NULs in
// every output string, the concept list capped at 24 and never longer than
// the count, the description at most 1000 runes, and each Parse under a
// second. Seeds: every file of the shared corpus and a few edge cases.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 3m ./okf/
func FuzzParse(f *testing.F) {
	dir := corpusDir(f)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f.Add(cutAtRuneBoundary(data, maxSeedBytes))
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		"---\nokf_version: 0.10\n---\n# T\n- [a](a/) - b\n",
		"\ufeff---\r\nokf_version: '0.1'\r\n...\r\n| [x](/y) | z |\r\n|---|---|\r\n| [a](b) | c |\r\n",
		"---\nokf_version: 0.2\n---\n- **[x](y)** — z\n  - [[w]] ![i](j) [k](mailto:l)\n",
		"---\nokf_version: 0.2\n---\n" + string([]byte{0xff, 0x00, 0xc3}) + "\n> - [x](../y#z)",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		card, err := Parse(data, testRoot)
		if elapsed := time.Since(start); !raceEnabled && elapsed > maxParseTime {
			t.Fatalf("Parse took %v on %d bytes", elapsed, len(data))
		}
		if err != nil {
			if !errors.Is(err, ErrNotBundle) {
				t.Fatalf("Parse: %v", err)
			}
			return
		}
		checkInvariants(t, card)
	})
}
