package safefetch

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestNotHTTPS(t *testing.T) {
	c, connects := newCounted(Options{AllowLoopback: true})
	for _, u := range []string{
		"http://example.com/key.txt",
		"http://127.0.0.1/",
		"ftp://example.com/x",
		"file:///etc/passwd",
		"gopher://example.com/",
		"https:///no-host",
		"//example.com/x",
		"example.com/x",
		"",
		"https://exa mple.com/",
	} {
		_, err := c.Get(context.Background(), u)
		e := wantErr(t, err, ReasonNotHTTPS, true)
		if e.URL != u {
			t.Errorf("%q: Error.URL = %q", u, e.URL)
		}
	}
	if connects.Load() != 0 {
		t.Errorf("%d connect attempts, want 0", connects.Load())
	}
}

func TestHTTPStatus(t *testing.T) {
	tests := []struct {
		status    int
		permanent bool
	}{
		{404, true},
		{403, true},
		{410, true},
		{400, true},
		{408, false},
		{425, false},
		{429, false},
		{500, false},
		{502, false},
		{503, false},
	}
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.WriteHeader(code)
		w.Write([]byte("nope"))
	}))
	c := New(trusting(srv, Options{AllowLoopback: true}))
	for _, tt := range tests {
		t.Run(itoa(tt.status), func(t *testing.T) {
			resp, err := c.Get(context.Background(), srv.URL+"/?code="+itoa(tt.status))
			if resp != nil {
				t.Fatalf("got a response for %d", tt.status)
			}
			e := wantErr(t, err, ReasonHTTPStatus, tt.permanent)
			if e.Status != tt.status {
				t.Errorf("Status = %d, want %d", e.Status, tt.status)
			}
		})
	}
}

// stallListener accepts TCP connections and never speaks.
func stallListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

func TestTimeouts(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/no-headers", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("start"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", mux)
	stalled := stallListener(t)

	tests := []struct {
		name  string
		url   string
		opts  Options
		limit time.Duration // configured bound the failure must come within
	}{
		{"accepts then silent (TLS handshake)", "https://" + stalled + "/",
			Options{ConnectTimeout: 300 * time.Millisecond, Timeout: 5 * time.Second}, 300 * time.Millisecond},
		{"accepts then silent, total timeout shorter", "https://" + stalled + "/",
			Options{ConnectTimeout: 5 * time.Second, Timeout: 300 * time.Millisecond}, 300 * time.Millisecond},
		{"headers never come", srv.URL + "/no-headers",
			Options{Timeout: 300 * time.Millisecond}, 300 * time.Millisecond},
		// A body cut by the deadline must never come back as a short
		// success (net/http sometimes ends it with a clean EOF).
		{"body never ends", srv.URL + "/slow-body",
			Options{Timeout: 300 * time.Millisecond}, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.AllowLoopback = true
			c := New(trusting(srv, tt.opts))
			start := time.Now()
			_, err := c.Get(context.Background(), tt.url)
			elapsed := time.Since(start)
			wantErr(t, err, ReasonTimeout, false)
			if elapsed > tt.limit+2*time.Second {
				t.Errorf("took %v, configured %v", elapsed, tt.limit)
			}
		})
	}
}

func TestOtherFailures(t *testing.T) {
	srv, _ := startTLS(t, "tcp4", "127.0.0.1:0", okHandler("hi"))

	t.Run("untrusted certificate", func(t *testing.T) {
		c := New(Options{AllowLoopback: true}) // system roots only
		_, err := c.Get(context.Background(), srv.URL+"/")
		wantErr(t, err, ReasonTLS, true)
	})
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		c := New(Options{AllowLoopback: true})
		_, err = c.Get(context.Background(), "https://"+addr+"/")
		wantErr(t, err, ReasonConnect, false)
	})
	t.Run("caller canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		c := New(trusting(srv, Options{AllowLoopback: true}))
		_, err := c.Get(ctx, srv.URL+"/")
		wantErr(t, err, ReasonCanceled, false)
	})
	t.Run("caller deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
		defer cancel()
		time.Sleep(time.Millisecond)
		c := New(trusting(srv, Options{AllowLoopback: true}))
		_, err := c.Get(ctx, srv.URL+"/")
		wantErr(t, err, ReasonTimeout, false)
	})
	t.Run("unknown name", func(t *testing.T) {
		c := New(Options{})
		c.dialer.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		_, err := c.Get(context.Background(), "https://no-such-host.invalid/")
		wantErr(t, err, ReasonDNS, true)
	})
	t.Run("resolver failure", func(t *testing.T) {
		c := New(Options{})
		c.dialer.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
		}
		_, err := c.Get(context.Background(), "https://example.com/")
		wantErr(t, err, ReasonDNS, false)
	})
}
