package worker_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/pkg/x402/x402test"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// TestSettlePaymentRecoversLostAnswers: a paid contact message whose
// settle answers were lost (the facilitator moved the money and answered
// 500, four times: more than one attempt's retries) is settled by the
// settle_payment job through River's retries, and granted once: one
// transfer, one message with one send job; the job run again changes
// nothing.
func TestSettlePaymentRecoversLostAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := storetest.NewStore(t)
	fac := x402test.New()
	defer fac.Close()
	fac.FailSettlesAfterSettling(4)

	req := x402.Requirement{Network: x402.Networks["base-sepolia"], AmountMicro: 100_000,
		PayTo: "0x1111111111111111111111111111111111111111", Resource: "https://okf.example/api/contact"}
	header := x402test.NewPayer().Pay(req, 2)
	doc, _ := base64.StdEncoding.DecodeString(header)
	pay, err := x402.Decode(header)
	if err != nil {
		t.Fatal(err)
	}
	reqJSON, _ := json.Marshal(req)
	grant, _ := json.Marshal(store.GrantSpec{Kind: store.GrantContact, Message: &store.ContactMessage{Path: store.ContactAgentX402,
		Agent: "ip:192.0.2.1/32", Name: "Ana", Email: "ana@example.com", Message: "Olá"}})
	id, err := st.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: pay.Nonce(), Payer: pay.Payer(), AmountMicros: 100_000, Product: "okf",
		Resource: "/api/contact", Mode: store.ModeLive, Doc: doc, Version: 2, Requirement: reqJSON, Grant: grant}, nil)
	if err != nil {
		t.Fatal(err)
	}

	client, events := startClient(t, ctx, worker.Options{Store: st,
		Facilitator: &x402.Facilitator{URL: fac.URL, Timeout: 2 * time.Second}})
	if _, err := client.Insert(ctx, jobs.SettlePaymentArgs{ID: id}, nil); err != nil {
		t.Fatal(err)
	}
	waitJob := func() {
		t.Helper()
		for {
			select {
			case ev := <-events:
				if ev.Job.Kind == (jobs.SettlePaymentArgs{}).Kind() && ev.Kind == river.EventKindJobCompleted {
					return
				}
			case <-ctx.Done():
				t.Fatal("settle_payment never completed")
			}
		}
	}
	waitJob()
	rec, err := st.PaymentByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.State != store.PaymentSettled || rec.Transaction == "" || rec.Doc != nil || rec.MessagePath != store.ContactAgentX402 {
		t.Fatalf("payment %+v", rec)
	}
	if fac.Transfers() != 1 || fac.Settles() != 5 {
		t.Fatalf("transfers %d, settles %d; want 1 and 5", fac.Transfers(), fac.Settles())
	}
	// Once more: nothing is settled or granted again.
	if _, err := client.Insert(ctx, jobs.SettlePaymentArgs{ID: id}, nil); err != nil {
		t.Fatal(err)
	}
	waitJob()
	var messages, sends int
	if err := st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM contact_messages WHERE payment_id = $1),
		(SELECT count(*) FROM river_job WHERE kind = 'send_contact')`, id).Scan(&messages, &sends); err != nil {
		t.Fatal(err)
	}
	if messages != 1 || sends != 1 || fac.Settles() != 5 {
		t.Fatalf("messages %d, send jobs %d, settles %d; want 1, 1, 5", messages, sends, fac.Settles())
	}
}
