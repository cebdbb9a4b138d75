package safefetch

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the TCP connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// startTLS starts an httptest TLS server for h listening on network/addr
// and counting accepted connections.
func startTLS(t *testing.T, network, addr string, h http.Handler) (*httptest.Server, *countingListener) {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatalf("listen %s %s: %v", network, addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	// Refused handshakes are expected in these tests; keep the log quiet.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Listener.Close()
	cl := &countingListener{Listener: ln}
	srv.Listener = cl
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, cl
}

// trusting returns opts with RootCAs trusting srv's certificate.
func trusting(srv *httptest.Server, opts Options) Options {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	opts.RootCAs = pool
	return opts
}

// newCounted builds a Client whose connect attempts (after every check)
// are counted.
func newCounted(opts Options) (*Client, *atomic.Int64) {
	c := New(opts)
	var n atomic.Int64
	c.dialer.onConnect = func(string) { n.Add(1) }
	return c, &n
}

// wantErr asserts err is an *Error with reason and permanence.
func wantErr(t *testing.T, err error, reason string, permanent bool) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *Error %s", err, err, reason)
	}
	if e.Reason != reason || e.Permanent != permanent {
		t.Fatalf("error = %v: reason %q permanent %v, want %q %v", e, e.Reason, e.Permanent, reason, permanent)
	}
	return e
}

func hasIPv6Loopback() bool {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

func okHandler(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(body))
	})
}

func TestRefusesNonPublicAddresses(t *testing.T) {
	srv4, ln4 := startTLS(t, "tcp4", "127.0.0.1:0", okHandler("secret"))
	port4 := srv4.Listener.Addr().(*net.TCPAddr).Port
	p4 := ":" + itoa(port4)

	tests := []struct {
		name string
		url  string
	}{
		{"loopback v4", srv4.URL + "/"},
		{"loopback v4 other", "https://127.1.2.3" + p4 + "/"},
		{"unspecified v4 reaches local listeners", "https://0.0.0.0" + p4 + "/"},
		{"mapped loopback", "https://[::ffff:127.0.0.1]" + p4 + "/"},
		{"name resolving to loopback", "https://localhost" + p4 + "/"},
		{"name resolving to loopback, upper case", "https://LOCALHOST" + p4 + "/"},
		{"private 10", "https://10.0.0.1/"},
		{"private 172.16", "https://172.16.5.4/"},
		{"private 192.168", "https://192.168.1.1/"},
		{"metadata", "https://169.254.169.254/latest/meta-data/"},
		{"metadata v6", "https://[fd00:ec2::254]/"},
		{"cgnat", "https://100.64.0.1/"},
		{"link-local v6", "https://[fe80::1]/"},
		{"unique-local v6", "https://[fd00::1]/"},
		{"nat64 private", "https://[64:ff9b::a00:1]/"},
		{"benchmark", "https://198.18.0.1/"},
		{"reserved", "https://240.0.0.1/"},
		{"broadcast", "https://255.255.255.255/"},
		{"multicast", "https://224.0.0.1/"},
	}
	var ln6 *countingListener
	if hasIPv6Loopback() {
		srv6, l := startTLS(t, "tcp6", "[::1]:0", okHandler("secret"))
		ln6 = l
		tests = append(tests,
			struct{ name, url string }{"loopback v6", srv6.URL + "/"},
			struct{ name, url string }{"unspecified v6", "https://[::]:" + itoa(srv6.Listener.Addr().(*net.TCPAddr).Port) + "/"},
		)
	} else {
		t.Log("no IPv6 loopback on this machine; ::1 cases skipped")
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, connects := newCounted(trusting(srv4, Options{}))
			resp, err := c.Get(context.Background(), tt.url)
			if resp != nil {
				t.Fatalf("got a response %q", resp.Body)
			}
			e := wantErr(t, err, ReasonBlockedAddress, true)
			if e.URL != tt.url {
				t.Errorf("Error.URL = %q, want %q", e.URL, tt.url)
			}
			if n := connects.Load(); n != 0 {
				t.Errorf("%d connect attempts, want 0", n)
			}
		})
	}
	if n := ln4.accepted.Load(); n != 0 {
		t.Errorf("IPv4 loopback server accepted %d connections, want 0", n)
	}
	if ln6 != nil && ln6.accepted.Load() != 0 {
		t.Errorf("IPv6 loopback server accepted %d connections, want 0", ln6.accepted.Load())
	}
}

func TestAllowLoopbackLetsOnlyLoopbackThrough(t *testing.T) {
	var ua atomic.Value
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.UserAgent())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("abc123key\n"))
	}))
	c, connects := newCounted(trusting(srv, Options{AllowLoopback: true}))
	var dialed []string
	var mu sync.Mutex
	c.dialer.onConnect = func(a string) { mu.Lock(); dialed = append(dialed, a); mu.Unlock(); connects.Add(1) }

	resp, err := c.Get(context.Background(), srv.URL+"/abc123key.txt")
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if string(resp.Body) != "abc123key\n" || resp.Status != 200 || resp.ContentType != "text/plain; charset=utf-8" {
		t.Errorf("response = %+v", resp)
	}
	if resp.URL != srv.URL+"/abc123key.txt" {
		t.Errorf("URL = %q", resp.URL)
	}
	if got := ua.Load(); got != DefaultUserAgent {
		t.Errorf("User-Agent = %q, want %q", got, DefaultUserAgent)
	}

	// A name is resolved once and the checked IP literal is what gets
	// dialled (the TLS name check then fails: the test certificate does
	// not name localhost, which is fine here).
	port := itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	dialed = nil
	_, err = c.Get(context.Background(), "https://localhost:"+port+"/")
	wantErr(t, err, ReasonTLS, true)
	mu.Lock()
	for _, a := range dialed {
		if strings.HasPrefix(a, "localhost") {
			t.Errorf("dialled %q: a name, not the checked address", a)
		}
	}
	mu.Unlock()

	for _, u := range []string{"https://10.0.0.1/", "https://192.168.0.1/", "https://169.254.169.254/", "https://100.64.0.1/", "https://[64:ff9b::7f00:1]/"} {
		before := connects.Load()
		_, err := c.Get(context.Background(), u)
		wantErr(t, err, ReasonBlockedAddress, true)
		if connects.Load() != before {
			t.Errorf("%s: connect attempted", u)
		}
	}
}

func TestRedirects(t *testing.T) {
	var targetHits, loopHits atomic.Int64
	mux := http.NewServeMux()
	var base, port string
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/final", http.StatusFound)
	})
	mux.HandleFunc("/same-absolute-case", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.ToUpper(base[:8])+base[8:]+"/final", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("final")) })
	mux.HandleFunc("/off-host", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://localhost:"+port+"/target", http.StatusFound)
	})
	mux.HandleFunc("/off-scheme", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:"+port+"/target", http.StatusFound)
	})
	mux.HandleFunc("/off-port", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://127.0.0.1:1/target", http.StatusFound)
	})
	mux.HandleFunc("/target", func(w http.ResponseWriter, r *http.Request) { targetHits.Add(1) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		loopHits.Add(1)
		http.Redirect(w, r, "/loop?n="+itoa(int(loopHits.Load())), http.StatusFound)
	})
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", mux)
	base = srv.URL
	port = itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	c := New(trusting(srv, Options{AllowLoopback: true, MaxRedirects: 2}))

	resp, err := c.Get(context.Background(), srv.URL+"/same")
	if err != nil || string(resp.Body) != "final" || resp.URL != srv.URL+"/final" {
		t.Fatalf("same-host redirect: resp %+v err %v", resp, err)
	}
	if _, err := c.Get(context.Background(), srv.URL+"/same-absolute-case"); err != nil {
		t.Fatalf("same host in other case: %v", err)
	}
	for _, path := range []string{"/off-host", "/off-scheme", "/off-port"} {
		_, err := c.Get(context.Background(), srv.URL+path)
		wantErr(t, err, ReasonRedirectOffHost, true)
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("off-host target hit %d times, want 0", n)
	}
	_, err = c.Get(context.Background(), srv.URL+"/loop")
	wantErr(t, err, ReasonTooManyRedirects, true)
	if n := loopHits.Load(); n != 3 { // the request and 2 redirects
		t.Errorf("loop hit %d times, want 3", n)
	}
	loopHits.Store(0)
	none := New(trusting(srv, Options{AllowLoopback: true, MaxRedirects: -1}))
	_, err = none.Get(context.Background(), srv.URL+"/same")
	wantErr(t, err, ReasonTooManyRedirects, true)
}

func TestBodyCap(t *testing.T) {
	const stream = 64 << 20
	var written atomic.Int64
	done := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		defer func() { done <- struct{}{} }()
		chunk := make([]byte, 32<<10)
		for written.Load() < stream {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", itoa(2<<20))
		w.Write(make([]byte, 2<<20))
	})
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // chunked: no Content-Length to go by
		w.Write(make([]byte, 1000))
	})
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", mux)
	c := New(trusting(srv, Options{AllowLoopback: true}))

	resp, err := c.Get(context.Background(), srv.URL+"/stream")
	if resp != nil {
		t.Fatalf("got %d bytes", len(resp.Body))
	}
	wantErr(t, err, ReasonBodyTooLarge, true)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("server kept streaming after the client stopped")
	}
	if n := written.Load(); n >= stream {
		t.Errorf("server wrote %d bytes: the whole stream was read", n)
	}
	t.Logf("server wrote %d bytes before the client hung up", written.Load())

	_, err = c.Get(context.Background(), srv.URL+"/declared")
	wantErr(t, err, ReasonBodyTooLarge, true)

	small := New(trusting(srv, Options{AllowLoopback: true, MaxBytes: 1000}))
	if resp, err := small.Get(context.Background(), srv.URL+"/exact"); err != nil || len(resp.Body) != 1000 {
		t.Fatalf("body of exactly MaxBytes: resp %v err %v", resp, err)
	}
	smaller := New(trusting(srv, Options{AllowLoopback: true, MaxBytes: 999}))
	_, err = smaller.Get(context.Background(), srv.URL+"/exact")
	wantErr(t, err, ReasonBodyTooLarge, true)
}

func TestResolvedAddresses(t *testing.T) {
	srv, ln := startTLS(t, "tcp4", "127.0.0.1:0", okHandler("ok"))
	port := itoa(srv.Listener.Addr().(*net.TCPAddr).Port)

	t.Run("any non-public answer refuses the name", func(t *testing.T) {
		c, connects := newCounted(Options{})
		c.dialer.lookup = func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("127.0.0.1")}, nil
		}
		_, err := c.Get(context.Background(), "https://mixed.example:"+port+"/")
		wantErr(t, err, ReasonBlockedAddress, true)
		if connects.Load() != 0 || ln.accepted.Load() != 0 {
			t.Errorf("connect attempted")
		}
	})

	t.Run("rebinding after the check cannot change the dialled address", func(t *testing.T) {
		// The first answer is allowed (loopback under the test setting);
		// every later answer points at a private address. The name must
		// be resolved once and the checked address dialled.
		c := New(trusting(srv, Options{AllowLoopback: true}))
		var lookups atomic.Int64
		c.dialer.lookup = func(context.Context, string) ([]netip.Addr, error) {
			if lookups.Add(1) == 1 {
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
		}
		var dialled []string
		var mu sync.Mutex
		c.dialer.onConnect = func(a string) { mu.Lock(); dialled = append(dialled, a); mu.Unlock() }
		// The certificate names example.com, so this name verifies.
		resp, err := c.Get(context.Background(), "https://example.com:"+port+"/")
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if string(resp.Body) != "ok" {
			t.Errorf("body = %q", resp.Body)
		}
		mu.Lock()
		defer mu.Unlock()
		if lookups.Load() != 1 || len(dialled) != 1 || dialled[0] != "127.0.0.1:"+port {
			t.Errorf("lookups %d, dialled %v; want one lookup and 127.0.0.1:%s", lookups.Load(), dialled, port)
		}
	})
}
