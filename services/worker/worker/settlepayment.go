package worker

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/x402"
)

// SettlePaymentWorker finishes x402 payments (settle_payment) that their
// request did not: the facilitator's answer was lost, or the process died
// between the claim and the grant. It asks the facilitator to settle the
// payment's signed document again (an authorization moves money once, so
// this learns the first outcome) and grants what the payment buys, once
// (package settle). A lost answer is returned as an error, so River asks
// again with its backoff until the facilitator answers; a payment already
// finished (by its request, the same payment sent again, or an operator)
// is a no-op.
type SettlePaymentWorker struct {
	river.WorkerDefaults[jobs.SettlePaymentArgs]
	Store       *store.Store
	Facilitator *x402.Facilitator
	Logger      *slog.Logger
}

// SettlePaymentTimeout bounds one attempt: the facilitator's settle with
// its own retries, and the grant.
const SettlePaymentTimeout = time.Minute

// Timeout bounds one attempt.
func (w *SettlePaymentWorker) Timeout(*river.Job[jobs.SettlePaymentArgs]) time.Duration {
	return SettlePaymentTimeout
}

// Work finishes one payment.
func (w *SettlePaymentWorker) Work(ctx context.Context, job *river.Job[jobs.SettlePaymentArgs]) error {
	s := &settle.Settler{Store: w.Store, Facilitator: w.Facilitator, Enqueue: sendContactEnqueue(ctx)}
	out, err := s.Settle(ctx, job.Args.ID)
	var refused *settle.Refused
	switch {
	case errors.Is(err, store.ErrNotFound):
		return river.JobCancel(err)
	case errors.Is(err, settle.ErrNeedsOperator):
		w.Logger.ErrorContext(ctx, "payment needs an operator: okfctl payments", "payment", job.Args.ID, "err", err)
		return river.JobCancel(err)
	case errors.As(err, &refused):
		w.Logger.InfoContext(ctx, "payment refused at settlement", "payment", job.Args.ID, "reason", refused.Reason)
		return nil
	case err != nil:
		return err
	}
	w.Logger.InfoContext(ctx, "payment finished", "payment", job.Args.ID, "state", out.Record.State)
	return nil
}

// sendContactEnqueue inserts a granted message's send job with the River
// client running the job.
func sendContactEnqueue(ctx context.Context) store.ContactEnqueueFunc {
	return func(ctx2 context.Context, tx pgx.Tx, id int64) error {
		client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
		if err != nil {
			return err
		}
		_, err = client.InsertTx(ctx2, tx, jobs.SendContactArgs{ID: id}, nil)
		return err
	}
}
