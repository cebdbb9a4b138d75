package worker

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/smtptest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// TestSendContactDownThenOnce: a message queued (and paid) while the mail
// server refuses is retried, delivered once it takes mail, and a further
// attempt of the same job sends nothing.
func TestSendContactDownThenOnce(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	mail, err := smtptest.New()
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	// A message paid by credit: $1 bought, $0.10 debited with the queueing.
	pid, err := st.ClaimPayment(ctx, store.PaymentClaim{ReplayKey: "0xa:0x1", Payer: "0xa", AmountMicros: 1_000_000, Product: "okf", Resource: "/api/credito"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := sha256.Sum256([]byte("cred_test"))
	if err := st.BuyCredit(ctx, pid, "0xtx", tok[:]); err != nil {
		t.Fatal(err)
	}
	id, err := st.QueueContact(ctx, store.ContactMessage{Path: store.ContactAgentCredit, Agent: "ip:192.0.2.1/32", Name: "Ana\r\nBcc: x@y.z",
		Email: "ana@example.com", Message: "Olá.\n.\nfim", Proposal: map[string]any{"tipo": "anuncio"}},
		store.ContactPayment{Credit: &store.Debit{TokenSHA256: tok[:], AmountMicros: 100_000, Product: "okf", Resource: "/api/contact"}},
		time.Now(), func(context.Context, pgx.Tx, int64) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	w := &SendContactWorker{Store: st, Host: "okf.example", Logger: slog.Default(),
		Mail: config.Contact{MailTo: "house@example.com", MailFrom: "okf@example.com", SMTPAddr: mail.Addr}}
	job := &river.Job[jobs.SendContactArgs]{JobRow: &rivertype.JobRow{}, Args: jobs.SendContactArgs{ID: id}}

	mail.Refuse(true)
	if err := w.Work(ctx, job); err == nil {
		t.Fatal("a refused message counted as sent")
	}
	mail.Refuse(false)
	for range 2 {
		if err := w.Work(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := st.CreditBalance(ctx, tok[:]); err != nil || b.BalanceMicros != 900_000 || len(b.Movements) != 2 {
		t.Fatalf("balance %+v (%v): one debit, whatever the retries", b, err)
	}
	msgs := mail.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages delivered, want 1", len(msgs))
	}
	data := string(msgs[0].Data)
	for _, want := range []string{"To: house@example.com", "Reply-To: ana@example.com", "Message-ID: <contact-", "Olá.", `"tipo": "anuncio"`} {
		if !strings.Contains(data, want) {
			t.Errorf("message lacks %q:\n%s", want, data)
		}
	}
	if strings.Contains(data, "\r\nBcc:") {
		t.Errorf("a header was injected through the name:\n%s", data)
	}
}
