package deploy

import (
	"strings"
	"testing"
)

// TestK8sPaymentMode: every full overlay says how it takes money (the
// binaries have no default), and only the overlay named for development
// simulates payments.
func TestK8sPaymentMode(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, variant, namespace string, m manifest) {
		mode := m.config(t).Data["X402_MODE"]
		dev := strings.HasSuffix(namespace, "-dev")
		switch {
		case variant == "full" && mode == "":
			t.Errorf("a full overlay without X402_MODE")
		case mode == "dev" && !dev:
			t.Errorf("X402_MODE=dev outside the development overlay (namespace %s)", namespace)
		case dev && mode != "dev":
			t.Errorf("the development overlay is %q, want dev", mode)
		}
	})
}
