package store_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
)

// buyCredit makes a token holding micros, bought by a settled payment.
func buyCredit(t *testing.T, s *store.Store, secret string, micros int64) []byte {
	t.Helper()
	ctx := context.Background()
	id, err := s.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: "0xpayer:" + secret, Payer: "0xpayer", AmountMicros: micros,
		Product: "okf", Resource: "/api/credito"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(secret))
	if err := s.BuyCredit(ctx, id, "0xtx", sum[:]); err != nil {
		t.Fatal(err)
	}
	return sum[:]
}

// TestConcurrentDebits: 100 concurrent debits of $0.10 on $1 give exactly
// 10 successes, a zero balance and 10 debit rows.
func TestConcurrentDebits(t *testing.T) {
	s, _ := newStore(t)
	tok := buyCredit(t, s, "cred_money", 1_000_000)
	var ok, short atomic.Int64
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			err := s.DebitCredit(context.Background(), store.Debit{TokenSHA256: tok, AmountMicros: 100_000, Product: "okf", Resource: "/api/contact"})
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, store.ErrCreditInsufficient):
				short.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	b, err := s.CreditBalance(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	debits := 0
	for _, m := range b.Movements {
		if m.Kind == "debit" {
			debits++
		}
	}
	if ok.Load() != 10 || short.Load() != 90 || b.BalanceMicros != 0 || debits != 10 {
		t.Fatalf("successes %d, refusals %d, balance %d, debit rows %d; want 10, 90, 0, 10",
			ok.Load(), short.Load(), b.BalanceMicros, debits)
	}
}

func TestPaymentReplayRefused(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	p := store.PaymentClaim{ReplayKey: "0xa:0x01", Payer: "0xa", AmountMicros: 100_000, Product: "okf", Resource: "/api/contact"}
	id, err := s.ClaimPayment(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimPayment(ctx, p, nil); !errors.Is(err, store.ErrPaymentReplayed) {
		t.Fatalf("replay: %v", err)
	}
	// A failed settlement keeps the key used, and cannot be granted.
	if err := s.FailPayment(ctx, id); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("x"))
	if err := s.BuyCredit(ctx, id, "0xtx", sum[:]); err == nil {
		t.Fatal("a failed payment bought credit")
	}
}

func TestCreditUnknownAndBalance(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	sum := sha256.Sum256([]byte("nobody"))
	if _, err := s.CreditBalance(ctx, sum[:]); !errors.Is(err, store.ErrCreditUnknown) {
		t.Fatal(err)
	}
	if err := s.DebitCredit(ctx, store.Debit{TokenSHA256: sum[:], AmountMicros: 1, Product: "okf", Resource: "x"}); !errors.Is(err, store.ErrCreditUnknown) {
		t.Fatal(err)
	}
	tok := buyCredit(t, s, "cred_b", 5_000_000)
	if err := s.DebitCredit(ctx, store.Debit{TokenSHA256: tok, AmountMicros: 100_000, Product: "other", Resource: "/x"}); err != nil {
		t.Fatal(err)
	}
	b, _ := s.CreditBalance(ctx, tok)
	if b.BalanceMicros != 4_900_000 || len(b.Movements) != 2 || b.Movements[0].Product != "other" || b.Movements[1].Kind != "credit" {
		t.Fatalf("balance = %+v", b)
	}
}

func TestContactBackoffSequence(t *testing.T) {
	s, clk := newStore(t)
	ctx := context.Background()
	noop := func(context.Context, pgx.Tx, int64) error { return nil }
	m := store.ContactMessage{Path: store.ContactAgentFree, Agent: "ip:192.0.2.1", Name: "a", Email: "a@b.c", Message: "hi"}
	if _, err := s.QueueContact(ctx, m, store.ContactPayment{Free: true}, clk.Now(), noop); err != nil {
		t.Fatal(err)
	}
	if _, err := s.QueueContact(ctx, m, store.ContactPayment{Free: true}, clk.Now(), noop); !errors.Is(err, store.ErrContactFreeUsed) {
		t.Fatalf("second free: %v", err)
	}
	var got []int
	for range 8 {
		if _, throttled, err := s.RefuseContact(ctx, m.Agent, clk.Now()); err != nil || throttled {
			t.Fatalf("refusal: throttled %v, %v", throttled, err)
		}
		wait, throttled, err := s.RefuseContact(ctx, m.Agent, clk.Now().Add(time.Second))
		if err != nil || !throttled {
			t.Fatalf("within the wait: throttled %v, %v", throttled, err)
		}
		got = append(got, int((wait+time.Second)/time.Second))
		clk.Advance(wait + time.Second)
	}
	if fmt.Sprint(got) != "[60 120 240 480 960 1920 3600 3600]" {
		t.Fatalf("waits = %v", got)
	}
}
