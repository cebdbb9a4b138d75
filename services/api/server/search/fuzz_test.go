package search

import (
	"errors"
	"net/http"
	"testing"
	"unicode/utf8"

	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Fuzz targets of the API's decoders: each input either decodes or is
// refused with an error answer of the contract, never a panic or an
// internal error. make fuzz runs every Fuzz target of the module.

// FuzzParseSearch: GET /api/bundles's query string, on both variants.
func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{
		"q=guide&sort=relevance", "version=0.1,0.2&limit=5&offset=10", "origin=github&repo=Owner/Repo",
		"concept=event+sour&concepts=1-5", "limit=%2B5", "q=%00", "q=a&q=b", "version=a,,b", "%zz",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, full bool) {
		p, err := ParseSearch(raw, full)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Body.Error == "" {
				t.Fatalf("ParseSearch(%q) = %v, want a 400 answer", raw, err)
			}
			return
		}
		if p.Limit < 1 || p.Limit > maxLimit || p.Offset < 0 || p.Offset > resultCap || !utf8.ValidString(p.Q) || len([]rune(p.Q)) > maxQLen {
			t.Fatalf("ParseSearch(%q) accepted %+v", raw, p)
		}
	})
}
