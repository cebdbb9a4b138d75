package identity_test

import (
	"errors"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
)

// FuzzVerify feeds session and event verification (the decoders of the
// session cookie and of POST /api/auth/events) arbitrary bytes: nothing
// panics, every refusal is ErrInvalid, and only the seeds' untouched tokens
// verify.
func FuzzVerify(f *testing.F) {
	idp := identitytest.New(f, config.AlgEdDSA)
	v := verifier(f, idp)
	session := idp.Session("id-1")
	event := idp.Event("id-1", identity.EventPasswordChanged, nil)
	for _, s := range []string{session, event, "", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", session + "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if _, err := v.Session(t.Context(), raw); err != nil && !errors.Is(err, identity.ErrInvalid) {
			t.Fatalf("session: %v", err)
		} else if err == nil && raw != session {
			t.Fatalf("a changed session verified: %q", raw)
		}
		if _, err := v.Event(t.Context(), raw); err != nil && !errors.Is(err, identity.ErrInvalid) {
			t.Fatalf("event: %v", err)
		} else if err == nil && raw != event {
			t.Fatalf("a changed event verified: %q", raw)
		}
	})
}
