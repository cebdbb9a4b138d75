package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/safefetch/safefetchtest"
)

// The settings read from the environment reach a local TLS server by a
// host name its certificate carries.
func TestFetchThroughDialOverride(t *testing.T) {
	srv := safefetchtest.NewTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s%s", r.Host, r.URL.Path)
	}), "site-a.test", "docs.okf-test.example")
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, srv.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OKF_FETCH_ALLOW_LOOPBACK": "1", "OKF_FETCH_CA_FILE": caFile, "OKF_FETCH_DIAL_OVERRIDE": srv.DialOverrideEnv()}
	w, err := config.LoadWorker(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	c := safefetch.New(fetchOptions(w.Fetch))
	for _, u := range []string{"https://site-a.test/k.txt", "https://docs.okf-test.example/okf/index.md"} {
		resp, err := c.Get(context.Background(), u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if want := strings.TrimPrefix(u, "https://"); string(resp.Body) != want {
			t.Errorf("%s: body %q, want %q", u, resp.Body, want)
		}
	}
	// A name the override does not hold is resolved as usual: nothing
	// public answers for .test, and loopback names fail the certificate.
	if _, err := c.Get(context.Background(), "https://localhost:"+strconv.Itoa(int(srv.Addr().Port()))+"/"); err == nil {
		t.Error("localhost passed the name check of a certificate that does not carry it")
	}
}
