package jobs

import "github.com/riverqueue/river"

// SendContactArgs asks the worker to send one queued contact message (the
// contact_messages row ID) to the configured address over SMTP. The API
// inserts it in the transaction that queued the message and took its
// payment; the worker marks the row sent when the mail server took it, so
// a retry never sends it twice.
type SendContactArgs struct {
	ID int64 `json:"id"`
}

// Kind names the job in River.
func (SendContactArgs) Kind() string { return "send_contact" }

// SendContactMaxAttempts bounds the retries of a mail server that is down;
// River spaces them with its backoff (hours in all).
const SendContactMaxAttempts = 20

// InsertOpts runs sends on the default queue with many retries.
func (SendContactArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: SendContactMaxAttempts}
}
