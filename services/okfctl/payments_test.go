package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/pkg/x402/x402test"
)

// TestPaymentsCommand: okfctl payments lists the payments left pending (a
// settle whose answer was lost), settles one with the facilitator (which
// moved the money once), records one settled by a transaction read on the
// chain, and records the refund of another; each is granted at most once.
func TestPaymentsCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(ctx, store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fac := x402test.New()
	defer fac.Close()
	req := x402.Requirement{Network: x402.Networks["base-sepolia"], AmountMicro: 1_000_000,
		PayTo: "0x1111111111111111111111111111111111111111", Resource: "https://okf.example/api/credito?usd=1"}
	reqJSON, _ := json.Marshal(req)
	claim := func() int64 {
		header := x402test.NewPayer().Pay(req, 1)
		doc, _ := base64.StdEncoding.DecodeString(header)
		pay, _ := x402.Decode(header)
		id, err := st.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: pay.Nonce(), Payer: pay.Payer(), AmountMicros: 1_000_000, Product: "okf",
			Resource: "/api/credito?usd=1", Mode: store.ModeLive, Doc: doc, Version: 1, Requirement: reqJSON,
			Grant: []byte(`{"kind":"credit"}`)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.MarkPaymentUnknown(ctx, id, "x402: facilitator unavailable: /settle: timeout"); err != nil {
			t.Fatal(err)
		}
		return id
	}
	byFacilitator, byChain, refunded := claim(), claim(), claim()
	env := map[string]string{"DATABASE_URL": dbURL, "X402_FACILITATOR_URL": fac.URL}
	run := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if err := paymentsCmd(ctx, args, func(k string) string { return env[k] }, &out, &errOut); err != nil {
			t.Fatalf("payments %v: %v %s", args, err, errOut.String())
		}
		return out.String()
	}
	list := run()
	if n := strings.Count(list, "unknown"); n != 3 || !strings.Contains(list, "/api/credito?usd=1") || !strings.Contains(list, "timeout") {
		t.Fatalf("list:\n%s", list)
	}
	if out := run("settle", strconv.FormatInt(byFacilitator, 10)); !strings.Contains(out, "settled") {
		t.Fatalf("settle: %s", out)
	}
	if out := run("settle", "-transaction", "0xabc", strconv.FormatInt(byChain, 10)); !strings.Contains(out, "settled, transaction 0xabc") {
		t.Fatalf("settle by record: %s", out)
	}
	if out := run("refund", "-note", "returned in 0xdef", strconv.FormatInt(refunded, 10)); !strings.Contains(out, "refunded") {
		t.Fatalf("refund: %s", out)
	}
	if list := run("list"); !strings.Contains(list, "no pending payments") {
		t.Fatalf("list after:\n%s", list)
	}
	// Finished payments are not finished again.
	var errOut bytes.Buffer
	if err := paymentsCmd(ctx, []string{"refund", "-note", "x", strconv.FormatInt(byFacilitator, 10)}, func(k string) string { return env[k] }, &bytes.Buffer{}, &errOut); err == nil {
		t.Fatal("a settled payment was refunded")
	}
	var tokens, credits int64
	if err := st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM credit_tokens), (SELECT coalesce(sum(amount_micros), 0) FROM credit_movements)`).Scan(&tokens, &credits); err != nil {
		t.Fatal(err)
	}
	if tokens != 2 || credits != 2_000_000 || fac.Transfers() != 1 {
		t.Fatalf("tokens %d, credit %d, transfers %d; want 2, 2000000, 1", tokens, credits, fac.Transfers())
	}
}
