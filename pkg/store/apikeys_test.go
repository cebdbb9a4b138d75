package store_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func newKey(identity, product, name string) store.NewAPIKey {
	h := sha256.Sum256([]byte(identity + product + name))
	return store.NewAPIKey{IdentityID: identity, Product: product, Name: name, SecretHash: h[:], Last4: "abcd"}
}

// Fifty concurrent creates of one identity leave exactly LiveKeyLimit live
// keys; the rest are ErrKeyLimit. Another product counts apart.
func TestCreateAPIKeyLimitUnderConcurrency(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	created, refused := 0, 0
	for i := range 50 {
		wg.Go(func() {
			_, err := st.CreateAPIKey(t.Context(), newKey("id-1", "okf", fmt.Sprintf("k%d", i)))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, store.ErrKeyLimit):
				refused++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if created != store.LiveKeyLimit || refused != 50-store.LiveKeyLimit {
		t.Fatalf("created %d, refused %d", created, refused)
	}
	if _, err := st.CreateAPIKey(t.Context(), newKey("id-1", "other", "k")); err != nil {
		t.Fatalf("another product: %v", err)
	}
	// A revoked key frees a place.
	keys, err := st.ListAPIKeys(t.Context(), "id-1", "okf")
	if err != nil || len(keys) != store.LiveKeyLimit {
		t.Fatalf("list: %d %v", len(keys), err)
	}
	if err := st.RevokeAPIKey(t.Context(), "id-1", "okf", keys[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateAPIKey(t.Context(), newKey("id-1", "okf", "again")); err != nil {
		t.Fatalf("after a revoke: %v", err)
	}
}

func TestRevokeAndFindAPIKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := t.Context()
	in := newKey("id-1", "okf", "mine")
	k, err := st.CreateAPIKey(ctx, in)
	if err != nil || !k.Active() || k.OrganizationID != nil {
		t.Fatalf("%+v %v", k, err)
	}
	if err := st.RevokeAPIKey(ctx, "id-2", "okf", k.ID); !errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("another identity's key: %v", err)
	}
	if err := st.RevokeAPIKey(ctx, "id-1", "other", k.ID); !errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("another product's key: %v", err)
	}
	for range 2 { // idempotent
		if err := st.RevokeAPIKey(ctx, "id-1", "okf", k.ID); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.APIKeyByHash(ctx, in.SecretHash)
	if err != nil || got.Active() || got.RevokedAt == nil {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := st.APIKeyByHash(ctx, make([]byte, 32)); !errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("unknown hash: %v", err)
	}
}

// A key's last use is written at most once per KeyUseInterval.
func TestTouchAPIKeyHourly(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	k, err := st.CreateAPIKey(t.Context(), newKey("id-1", "okf", "k"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at    time.Time
		wrote bool
	}{{t0, true}, {t0.Add(time.Minute), false}, {t0.Add(59 * time.Minute), false}, {t0.Add(time.Hour), true}} {
		wrote, err := st.TouchAPIKey(t.Context(), k.ID, c.at)
		if err != nil || wrote != c.wrote {
			t.Errorf("touch at %v: wrote %v, want %v (%v)", c.at, wrote, c.wrote, err)
		}
	}
}
