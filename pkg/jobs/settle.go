package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// SettlePaymentArgs asks the worker to finish one x402 payment (the
// x402_payments row ID) that its request may not have finished: settle it
// with the facilitator and grant what it buys, once (package settle). The
// API inserts it in the transaction that claims the payment, scheduled
// SettlePaymentDelay later; a payment already finished makes it a no-op.
type SettlePaymentArgs struct {
	ID int64 `json:"id"`
}

// Kind names the job in River.
func (SettlePaymentArgs) Kind() string { return "settle_payment" }

// SettlePaymentDelay is how long after the claim the job first runs: past
// the request's own settle, so that the two rarely ask the facilitator at
// once (if they do, the grant is still once).
const SettlePaymentDelay = 20 * time.Second

// SettlePaymentMaxAttempts bounds the retries of a facilitator that does
// not answer; River spaces them with its backoff (weeks in all), and
// okfctl payments lists what is still pending.
const SettlePaymentMaxAttempts = 25

// InsertOpts runs settles on the default queue with many retries.
func (SettlePaymentArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: SettlePaymentMaxAttempts}
}
