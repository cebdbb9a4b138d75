package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestSessionRevocation(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := t.Context()
	iat := time.Now().Add(-time.Minute).Truncate(time.Second)
	revoked := func(product, sid string) bool {
		t.Helper()
		r, err := st.SessionRevoked(ctx, product, sid, "id-1", iat)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if revoked("okf", "s1") {
		t.Fatal("a fresh session is revoked")
	}
	if err := st.RevokeSession(ctx, "okf", "s1", "id-1", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !revoked("okf", "s1") || revoked("other", "s1") || revoked("okf", "s2") {
		t.Fatal("logout must end this product's session only")
	}
	// Ending all sessions at the house refuses those issued before, keeps later ones.
	if _, err := st.ApplyIdentityEvent(ctx, store.IdentityEvent{JTI: "e1", IdentityID: "id-1", Kind: "sessions_ended",
		At: iat.Add(time.Second), EndSessions: true}); err != nil {
		t.Fatal(err)
	}
	if !revoked("other", "s9") {
		t.Error("a session issued before the event still works")
	}
	if r, _ := st.SessionRevoked(ctx, "okf", "s3", "id-1", iat.Add(2*time.Second)); r {
		t.Error("a session issued after the event is refused")
	}
}

// An identity event stops the identity's keys and sets its picture, once.
func TestApplyIdentityEvent(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := t.Context()
	in := newKey("id-1", "okf", "k")
	if _, err := st.CreateAPIKey(ctx, in); err != nil {
		t.Fatal(err)
	}
	ev := store.IdentityEvent{JTI: "e1", IdentityID: "id-1", Kind: "password_changed", At: time.Now(),
		StopKeys: true, SetAvatar: true, Avatar: []byte("RIFF")}
	for i, want := range []bool{true, false} {
		applied, err := st.ApplyIdentityEvent(ctx, ev)
		if err != nil || applied != want {
			t.Fatalf("apply %d: %v %v", i, applied, err)
		}
	}
	k, err := st.APIKeyByHash(ctx, in.SecretHash)
	if err != nil || k.Active() || k.StoppedAt == nil {
		t.Fatalf("key after the event: %+v %v", k, err)
	}
	if b, err := st.Avatar(ctx, "id-1"); err != nil || string(b) != "RIFF" {
		t.Fatalf("avatar %q %v", b, err)
	}
	if _, err := st.ApplyIdentityEvent(ctx, store.IdentityEvent{JTI: "e2", IdentityID: "id-1", SetAvatar: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Avatar(ctx, "id-1"); !errors.Is(err, store.ErrNoAvatar) {
		t.Fatalf("removed avatar: %v", err)
	}
}

// A profile is created on first sight with defaults; revision moves only on a change.
func TestSyncProfile(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := t.Context()
	for i, c := range []struct {
		claims store.ProfileClaims
		want   store.Profile
	}{
		{store.ProfileClaims{}, store.Profile{IdentityID: "id-1", Locale: "en", TimeZone: "UTC", Theme: "system", Revision: 1}},
		{store.ProfileClaims{}, store.Profile{IdentityID: "id-1", Locale: "en", TimeZone: "UTC", Theme: "system", Revision: 1}},
		{store.ProfileClaims{Name: "Ana", Locale: "pt-BR"}, store.Profile{IdentityID: "id-1", Name: "Ana", Locale: "pt-BR", TimeZone: "UTC", Theme: "system", Revision: 2}},
		{store.ProfileClaims{Name: "Ana"}, store.Profile{IdentityID: "id-1", Name: "Ana", Locale: "pt-BR", TimeZone: "UTC", Theme: "system", Revision: 2}},
		{store.ProfileClaims{TimeZone: "America/Sao_Paulo"}, store.Profile{IdentityID: "id-1", Name: "Ana", Locale: "pt-BR", TimeZone: "America/Sao_Paulo", Theme: "system", Revision: 3}},
	} {
		got, err := st.SyncProfile(ctx, "id-1", c.claims)
		if err != nil || got != c.want {
			t.Errorf("step %d: %+v %v, want %+v", i, got, err, c.want)
		}
	}
}
