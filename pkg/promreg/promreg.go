// Package promreg registers Prometheus collectors so that two servers of
// one process (tests, or a restart of a component) can share a registry:
// the second gets the collector the first registered.
package promreg

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Register registers c, or returns the collector already registered under
// the same description. A clash of descriptions is a programming error and
// panics.
func Register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			return are.ExistingCollector.(C)
		}
		panic(err)
	}
	return c
}
