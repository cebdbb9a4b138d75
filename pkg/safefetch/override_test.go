package safefetch

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/okfindex/okf-index/pkg/safefetch/safefetchtest"
)

// DialOverride connects names to a local TLS server while the URL, the
// certificate check and the redirect rule keep using the name, and the
// target address is checked like a resolved one.
func TestDialOverride(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/key.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("key for " + strings.ToLower(r.Host)))
	})
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/final", http.StatusFound)
	})
	mux.HandleFunc("/to-b", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://site-b.test/final", http.StatusFound)
	})
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("final on " + r.Host))
	})
	srv := safefetchtest.NewTLSServer(t, mux, "site-a.test", "site-b.test")
	addr := srv.Addr()
	withC := srv.DialOverride() // also sends site-c.test, which the certificate does not name, to the server
	withC["site-c.test"] = addr
	tests := []struct {
		name     string
		opts     Options
		url      string
		body     string // want this body, or
		reason   string // this refusal
		dialled  bool   // whether a connect to the server is attempted
		finalURL string
	}{
		{name: "the name reaches the override address",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://site-a.test/key.txt", body: "key for site-a.test", dialled: true},
		{name: "names match in any case",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: map[string]netip.AddrPort{"Site-B.Test": addr}},
			url:  "https://SITE-B.test/key.txt", body: "key for site-b.test", dialled: true},
		{name: "the port of the URL does not matter",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://site-a.test:8443/key.txt", body: "key for site-a.test:8443", dialled: true},
		{name: "same-host redirects are followed",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://site-a.test/same", body: "final on site-a.test", dialled: true, finalURL: "https://site-a.test/final"},
		{name: "a redirect to another overridden name is off the host",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://site-a.test/to-b", reason: ReasonRedirectOffHost, dialled: true},
		{name: "a loopback target needs AllowLoopback",
			opts: Options{RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://site-a.test/key.txt", reason: ReasonBlockedAddress},
		{name: "a private target is refused even with AllowLoopback",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: map[string]netip.AddrPort{"site-a.test": netip.MustParseAddrPort("10.0.0.1:443")}},
			url:  "https://site-a.test/key.txt", reason: ReasonBlockedAddress},
		{name: "the certificate must name the host",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: withC},
			url:  "https://site-c.test/key.txt", reason: ReasonTLS, dialled: true},
		{name: "the system roots do not trust the test certificate",
			opts: Options{AllowLoopback: true, DialOverride: srv.DialOverride()},
			url:  "https://site-a.test/key.txt", reason: ReasonTLS, dialled: true},
		{name: "other names resolve as usual",
			opts: Options{AllowLoopback: true, RootCAs: srv.RootCAs(), DialOverride: srv.DialOverride()},
			url:  "https://elsewhere.test/key.txt", reason: ReasonBlockedAddress}, // the stub resolves it to 10.0.0.1
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(tt.opts)
			c.dialer.lookup = func(context.Context, string) ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
			}
			var mu sync.Mutex
			var dialled []string
			c.dialer.onConnect = func(a string) { mu.Lock(); dialled = append(dialled, a); mu.Unlock() }
			resp, err := c.Get(context.Background(), tt.url)
			if tt.reason != "" {
				if resp != nil {
					t.Fatalf("got a response %q", resp.Body)
				}
				wantErr(t, err, tt.reason, true)
			} else {
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				if string(resp.Body) != tt.body {
					t.Errorf("body %q, want %q", resp.Body, tt.body)
				}
				if tt.finalURL != "" && resp.URL != tt.finalURL {
					t.Errorf("final URL %q, want %q", resp.URL, tt.finalURL)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if !tt.dialled && len(dialled) > 0 {
				t.Errorf("dialled %v, want no connect", dialled)
			}
			for _, a := range dialled {
				if a != addr.String() {
					t.Errorf("dialled %s, want only %s", a, addr)
				}
			}
			if tt.dialled && len(dialled) == 0 {
				t.Errorf("no connect to %s", addr)
			}
		})
	}
}
