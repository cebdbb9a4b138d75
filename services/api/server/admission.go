package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// maxReadsInFlight bounds the requests of ReadsIndex routes served at once.
// Past it a read is refused at once (503 unavailable, with Retry-After)
// rather than queued: under overload a queue only adds latency to every
// answer (each one then waits behind the others for the read pool, and the
// contract's searches stop being fast for anyone) and memory to the process
// (a waiting request holds its goroutine and buffers: without a bound,
// make load saw the API grow to 320 MB). The read pool has far fewer
// connections than this, so the bound only bites when reads arrive faster
// than Postgres answers them; a short wait in the pool's own queue stays.
const maxReadsInFlight = 128

// admission holds the slots of reads in flight.
type admission struct {
	slots chan struct{}
}

func newAdmission(n int) *admission {
	return &admission{slots: make(chan struct{}, n)}
}

// admit takes a slot and returns its release, or the 503 unavailable of an
// index read refused when none is free.
func (a *admission) admit() (release func(), err error) {
	select {
	case a.slots <- struct{}{}:
		return func() { <-a.slots }, nil
	default:
		return nil, overloaded()
	}
}

// middleware admits a request of a ReadsIndex route when a slot is free,
// and refuses it otherwise; other routes pass untouched, and so do Cached
// ones, whose handlers admit their misses (package search, cache.go).
func (a *admission) middleware(routes route.ByPath) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			method := c.Request().Method
			if method == http.MethodHead {
				method = http.MethodGet
			}
			if row, ok := routes.Row(method, c.Path()); !ok || !row.ReadsIndex || row.Cached {
				return next(c)
			}
			release, err := a.admit()
			if err != nil {
				return err
			}
			defer release()
			return next(c)
		}
	}
}

// overloaded is the 503 of a read refused because maxReadsInFlight reads
// are being served; the error handler adds Retry-After, as to every 503.
func overloaded() error {
	return apierror.New(apierror.Unavailable,
		"The index is answering as many reads as it can at once; retry after Retry-After seconds.")
}
