package jobs

import (
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/store"
)

// VerifyPingArgs asks the worker to verify one accepted IndexNow submission:
// fetch the key file at KeyLocation through the guarded client, and when its
// trimmed content equals Key, fetch, parse and publish each URL as a domain
// bundle. Every URL ends published or rejected in the pings table.
//
// The key travels in the job's arguments because the worker must compare
// it; it is no secret once published (anyone can read the key file), and
// the status endpoint never shows it.
type VerifyPingArgs struct {
	Host        string          `json:"host"`
	Key         string          `json:"key"`
	KeyLocation string          `json:"key_location"`
	URLs        []store.PingURL `json:"urls"`
}

// Kind names the job in River.
func (VerifyPingArgs) Kind() string { return "verify_ping" }

// VerifyPingMaxAttempts bounds the retries of a verification whose fetches
// failed transiently (timeouts, 5xx); River spaces them with its backoff.
// At the last attempt a transient failure is recorded as a rejection.
const VerifyPingMaxAttempts = 6

// InsertOpts runs verifications on the default queue with bounded retries.
func (VerifyPingArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: VerifyPingMaxAttempts}
}
