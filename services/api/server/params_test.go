package server

import (
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

func TestBadParameters(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		query string
		name  string // error name
		field string
		base  bool // case applies to the base variant
		full  bool // case applies to the full variant
	}{
		{"limit=0", apierror.InvalidParameter, "limit", true, true},
		{"limit=-1", apierror.InvalidParameter, "limit", true, true},
		{"limit=abc", apierror.InvalidParameter, "limit", true, true},
		{"limit=1.5", apierror.InvalidParameter, "limit", true, true},
		{"limit=%2B5", apierror.InvalidParameter, "limit", true, true},
		{"limit=10&limit=20", apierror.InvalidParameter, "limit", true, true},
		{"offset=-1", apierror.InvalidParameter, "offset", true, true},
		{"offset=abc", apierror.InvalidParameter, "offset", true, true},
		{"offset=1e3", apierror.InvalidParameter, "offset", true, true},
		{"sort=popular", apierror.InvalidParameter, "sort", true, true},
		{"cursor=notacursor", apierror.InvalidParameter, "cursor", true, true},
		{"cursor=eyJzIjoibmFtZSIsImkiOiJ4In0&sort=stars", apierror.InvalidParameter, "cursor", true, true}, // a name cursor
		{"cursor=" + long(601), apierror.InvalidParameter, "cursor", true, true},
		{"sort=NAME", apierror.InvalidParameter, "sort", true, true},
		{"origin=gitlab", apierror.InvalidParameter, "origin", true, true},
		{"repo=justaname", apierror.InvalidParameter, "repo", true, true},
		{"repo=a/b/c", apierror.InvalidParameter, "repo", true, true},
		{"repo=-bad/name", apierror.InvalidParameter, "repo", true, true},
		{"repo=" + long(40) + "/x", apierror.InvalidParameter, "repo", true, true},
		{"version=0.1,0.2,0.3,0.4,0.5,0.6", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,0.2,0.3&version=0.4,0.5,0.6", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,,0.2", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,%20", apierror.InvalidParameter, "version", true, true},
		{"version=" + long(21), apierror.InvalidParameter, "version", true, true},
		{"language=a,b,c,d,e,f", apierror.InvalidParameter, "language", true, true},
		{"language=" + long(41), apierror.InvalidParameter, "language", true, true},
		{"q=" + long(201), apierror.InvalidParameter, "q", true, true},
		{"q=a&q=b", apierror.InvalidParameter, "q", true, true},
		{"q=%FF%FE", apierror.InvalidParameter, "q", true, true},
		{"q=a%00b", apierror.InvalidParameter, "q", true, true},
		{"q=%zz", apierror.InvalidParameter, "", true, true},
		{"concept=" + long(81), apierror.InvalidParameter, "concept", false, true},
		{"concepts=7-9", apierror.InvalidParameter, "concepts", false, true},
		{"concepts=0,1-5,6-20,21-100,101%2B,0", apierror.InvalidParameter, "concepts", false, true},
		{"type=a,b,c,d,e,f", apierror.InvalidParameter, "type", false, true},
		{"type=" + long(41), apierror.InvalidParameter, "type", false, true},
		{"license=" + long(41), apierror.InvalidParameter, "license", false, true},
		{"license=a,b,c,d,e,f", apierror.InvalidParameter, "license", false, true},
		{"concept=x", apierror.UnsupportedParameter, "concept", true, false},
		{"concepts=0", apierror.UnsupportedParameter, "concepts", true, false},
		{"type=glossary", apierror.UnsupportedParameter, "type", true, false},
		{"license=MIT", apierror.UnsupportedParameter, "license", true, false},
	}
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			a := newAPI(t, variant)
			for _, c := range cases {
				if (variant == config.VariantBase && !c.base) || (variant == config.VariantFull && !c.full) {
					continue
				}
				e := a.getError("/api/bundles?"+c.query, 400, c.name)
				if e.Field != c.field {
					t.Errorf("?%.60s: field %q, want %q", c.query, e.Field, c.field)
				}
				if !strings.HasSuffix(e.Message, ".") || strings.Count(e.Message, ". ") > 0 {
					t.Errorf("?%.60s: message %q is not one sentence", c.query, e.Message)
				}
			}
			// At the limits, values are accepted.
			for _, q := range []string{
				"q=" + long(200), "version=" + long(20) + ",a,b,c,d", "language=" + long(40),
				"limit=1", "limit=100", "limit=101", "offset=0", "offset=1000", "repo=" + long(39) + "/" + long(100),
				"concept=", "type=", "license=", "concepts=", // empty is absent, in both variants
			} {
				a.get("/api/bundles?"+q, 200, nil)
			}
			if variant == config.VariantFull {
				for _, q := range []string{"concept=" + long(80), "type=" + long(40) + ",b,c,d,e", "license=" + long(40),
					"concepts=0,1-5,6-20,21-100,101%2B"} {
					a.get("/api/bundles?"+q, 200, nil)
				}
			}
		})
	}
}
