package store_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// TestFinance sums every state of a payment and both kinds of credit
// movement, and keeps dev-mode settlements out of the money received.
func TestFinance(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if f, err := s.Finance(ctx); err != nil || f != (store.Finance{}) {
		t.Fatalf("empty database: %+v (%v)", f, err)
	}
	tok := buyCredit(t, s, "cred_a", 5_000_000) // settled on chain: 5.00 of credit
	claim := func(key string, micros int64) int64 {
		id, err := s.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: key, Payer: "0xp", AmountMicros: micros, Product: "okf", Resource: "/api/credito"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	devSum := sha256.Sum256([]byte("cred_dev"))
	if err := s.BuyCredit(ctx, claim("dev", 1_000_000), store.DevTransaction, devSum[:]); err != nil { // dev: 1.00 of credit, nothing received
		t.Fatal(err)
	}
	claim("pending", 10_000_000)
	if err := s.FailPayment(ctx, claim("failed", 25_000_000)); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.DebitCredit(ctx, store.Debit{TokenSHA256: tok, AmountMicros: 100_000, Product: "okf", Resource: "/api/contact"}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := s.Finance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Finance{ReceivedMicros: 5_000_000, Payments: 1, SimulatedPayments: 1, PendingPayments: 1, PendingMicros: 10_000_000,
		FailedPayments: 1, CreditSoldMicros: 6_000_000, CreditSpentMicros: 300_000, CreditBalanceMicros: 5_700_000, CreditTokens: 2, CreditDebits: 3}
	if f.PendingOldest == nil || time.Since(*f.PendingOldest) > time.Minute {
		t.Fatalf("oldest pending payment at %v", f.PendingOldest)
	}
	f.PendingOldest = nil
	if f != want {
		t.Fatalf("finance\n got %+v\nwant %+v", f, want)
	}
}

func TestAccountTotals(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if a, err := s.AccountTotals(ctx, "okf"); err != nil || a != (store.AccountTotals{}) {
		t.Fatalf("empty: %+v (%v)", a, err)
	}
	for _, id := range []string{"ana", "bia"} {
		if _, err := s.SyncProfile(ctx, id, store.ProfileClaims{}); err != nil {
			t.Fatal(err)
		}
	}
	var keys []store.APIKey
	for _, k := range []store.NewAPIKey{newKey("ana", "okf", "a"), newKey("ana", "okf", "b"), newKey("bia", "okf", "c"), newKey("bia", "other", "d")} {
		key, err := s.CreateAPIKey(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	if err := s.RevokeAPIKey(ctx, "ana", "okf", keys[0].ID); err != nil {
		t.Fatal(err)
	}
	if a, err := s.AccountTotals(ctx, "okf"); err != nil || a != (store.AccountTotals{Total: 2, KeysLive: 2}) {
		t.Fatalf("totals %+v (%v), want 2 accounts and 2 live keys", a, err)
	}
}
