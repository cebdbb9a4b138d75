package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
)

// paymentsUsage is okfctl payments' help.
const paymentsUsage = `Usage:
  okfctl payments [list]                       the x402 payments not yet settled (claimed, unknown), oldest first
  okfctl payments settle ID                    ask the facilitator (X402_FACILITATOR_URL) to settle payment ID, then grant it
  okfctl payments settle -transaction TX ID    record payment ID settled by TX (read on the chain) and grant it
  okfctl payments refund -note TEXT ID         record that payment ID was refunded by hand; nothing is granted

A granted credit purchase's token is shown to the client when it sends the
same payment again; a granted contact message is queued for sending.
`

// paymentsCmd lists, settles or records the refund of pending payments
// (DATABASE_URL; X402_FACILITATOR_URL for settle).
func paymentsCmd(ctx context.Context, args []string, getenv func(string) string, out, errOut io.Writer) error {
	sub := "list"
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("payments "+sub, flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() { fmt.Fprint(errOut, paymentsUsage) }
	transaction := fs.String("transaction", "", "settle: the settlement's transaction, read on the chain (the facilitator is not asked)")
	note := fs.String("note", "", "refund: how the money was returned (the refund's transaction)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dbURL, err := config.LoadDatabaseURL(getenv)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{URL: dbURL})
	if err != nil {
		return err
	}
	defer st.Close()
	id := func() (int64, error) {
		if fs.NArg() != 1 {
			fs.Usage()
			return 0, errUsage
		}
		return strconv.ParseInt(fs.Arg(0), 10, 64)
	}
	switch sub {
	case "list":
		return listPayments(ctx, st, out)
	case "settle":
		n, err := id()
		if err != nil {
			return err
		}
		return settlePayment(ctx, st, n, *transaction, getenv, out)
	case "refund":
		n, err := id()
		if err != nil {
			return err
		}
		if *note == "" {
			return fmt.Errorf("payments refund: -note is required (how the money was returned)")
		}
		if err := st.RefundPayment(ctx, n, *note); errors.Is(err, store.ErrPaymentNotPending) {
			return fmt.Errorf("payment %d is not pending (settled, failed, refunded, or unknown id)", n)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(out, "payment %d recorded as refunded\n", n)
		return nil
	}
	fs.Usage()
	return errUsage
}

func listPayments(ctx context.Context, st *store.Store, out io.Writer) error {
	pending, err := st.PendingPayments(ctx, 0)
	if err != nil {
		return err
	}
	if len(pending) == 0 {
		fmt.Fprintln(out, "no pending payments")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tMODE\tAGE\tUSD\tRESOURCE\tPAYER\tATTEMPTS\tLAST ERROR")
	for _, p := range pending {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d.%06d\t%s\t%s\t%d\t%.80s\n", p.ID, p.State, p.Mode,
			time.Since(p.CreatedAt).Round(time.Second), p.AmountMicros/1_000_000, p.AmountMicros%1_000_000,
			p.Resource, p.Payer, p.Attempts, p.LastError)
	}
	return tw.Flush()
}

func settlePayment(ctx context.Context, st *store.Store, id int64, transaction string, getenv func(string) string, out io.Writer) error {
	facilitator, err := config.LoadFacilitatorURL(getenv)
	if err != nil {
		return err
	}
	jobsClient, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		return err
	}
	s := &settle.Settler{Store: st, Facilitator: &x402.Facilitator{URL: facilitator},
		Enqueue: func(ctx context.Context, tx pgx.Tx, id int64) error {
			_, err := jobsClient.InsertTx(ctx, tx, jobs.SendContactArgs{ID: id}, nil)
			return err
		}}
	var o settle.Outcome
	if transaction != "" {
		rec, err := st.PaymentByID(ctx, id)
		if err != nil {
			return err
		}
		if rec.State != store.PaymentClaimed && rec.State != store.PaymentUnknown {
			return fmt.Errorf("payment %d is %s, not pending", id, rec.State)
		}
		pay, err := x402.DecodeDocument(rec.Doc)
		if err != nil {
			return err
		}
		o, err = s.Grant(ctx, rec, pay, transaction)
		if err != nil {
			return err
		}
	} else if o, err = s.Settle(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(out, "payment %d: %s, transaction %s\n", id, o.Record.State, o.Record.Transaction)
	return nil
}
