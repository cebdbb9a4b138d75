package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// PublishVitrineArgs asks the worker (the collector of the full variant) to
// publish the usage projection and the operator documents (pkg/vitrine)
// for the UTC hour Hour (RFC 3339). It is periodic, a few minutes past
// every hour; a second run within an hour publishes nothing new.
type PublishVitrineArgs struct {
	Hour string `json:"hour"`
}

// Kind names the job in River.
func (PublishVitrineArgs) Kind() string { return "publish_vitrine" }

// InsertOpts makes the job unique per hour, so several workers never
// queue it twice.
func (PublishVitrineArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: time.Hour}}
}

// PublishVitrineAfter is how long past each full hour the periodic
// publication runs: the API's usage flushes of the hour (every second) are
// in by then.
const PublishVitrineAfter = 2 * time.Minute
