package account

import (
	"errors"
	"testing"

	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// The body decoders of the key writes never panic, and accept or refuse
// with one of their error names.
func FuzzKeyBodies(f *testing.F) {
	for _, s := range []string{`{"name":"ci","organizationId":null}`, `{"name":"x","organizationId":"org-1"}`, `{}`, `[]`, `null`,
		`{"name":"` + "\u00e9\u00e9" + `","organizationId":""}`, `{"id":"00000000-0000-4000-8000-000000000000"}`, `{"id":5}`, `{"name":"a\u0000"}`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := parseKeyCreate(b)
		checkFuzzError(t, err, apierror.InvalidRequest, apierror.InvalidKeyName, apierror.InvalidOrganization)
		if err == nil && !validKeyName(in.name) {
			t.Fatalf("accepted name %q", in.name)
		}
		_, err = parseKeyRevoke(b)
		checkFuzzError(t, err, apierror.InvalidRequest, apierror.InvalidKeyID)
	})
}

func checkFuzzError(t *testing.T, err error, names ...string) {
	if err == nil {
		return
	}
	var ae *apierror.Error
	if !errors.As(err, &ae) {
		t.Fatalf("not an API error: %v", err)
	}
	for _, n := range names {
		if ae.Body.Error == n {
			return
		}
	}
	t.Fatalf("error name %q, want one of %v", ae.Body.Error, names)
}
