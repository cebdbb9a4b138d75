package config

import (
	"encoding/pem"
	"maps"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
)

// The fetch test settings are off by default, read when set, and refused
// when malformed.
func TestLoadFetch(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	opts, err := loadFetch(getenv)
	if err != nil || opts.AllowLoopback || opts.RootCAs != nil {
		t.Fatalf("default: %+v %v", opts, err)
	}

	srv := httptest.NewTLSServer(nil)
	defer srv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	env["OKF_FETCH_ALLOW_LOOPBACK"], env["OKF_FETCH_CA_FILE"] = "1", caFile
	if opts, err = loadFetch(getenv); err != nil || !opts.AllowLoopback || opts.RootCAs == nil {
		t.Fatalf("set: %+v %v", opts, err)
	}

	for k, v := range map[string]string{"OKF_FETCH_ALLOW_LOOPBACK": "maybe", "OKF_FETCH_CA_FILE": filepath.Join(t.TempDir(), "none.pem")} {
		bad := map[string]string{k: v}
		if _, err := loadFetch(func(k string) string { return bad[k] }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	if err := os.WriteFile(caFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadFetch(func(k string) string { return map[string]string{"OKF_FETCH_CA_FILE": caFile}[k] }); err == nil {
		t.Error("a CA file without PEM accepted")
	}
}

// OKF_FETCH_DIAL_OVERRIDE: name=ip:port pairs of host names and loopback
// targets, only with OKF_FETCH_ALLOW_LOOPBACK.
func TestLoadFetchDialOverride(t *testing.T) {
	a := netip.MustParseAddrPort("127.0.0.1:34567")
	b := netip.MustParseAddrPort("[::1]:34568")
	tests := []struct {
		override, allow string
		want            map[string]netip.AddrPort // nil: refused
	}{
		{"site-a.test=127.0.0.1:34567", "1", map[string]netip.AddrPort{"site-a.test": a}},
		{" Site-A.Test. = 127.0.0.1:34567 , docs.okf-test.example=[::1]:34568,", "true",
			map[string]netip.AddrPort{"site-a.test": a, "docs.okf-test.example": b}},
		{"localhost=127.0.0.2:443", "1", map[string]netip.AddrPort{"localhost": netip.MustParseAddrPort("127.0.0.2:443")}},
		{"site-a.test=[::ffff:127.0.0.1]:34567", "1", map[string]netip.AddrPort{"site-a.test": netip.MustParseAddrPort("[::ffff:127.0.0.1]:34567")}},
		{"site-a.test=127.0.0.1:34567", "", nil},                              // needs OKF_FETCH_ALLOW_LOOPBACK
		{"site-a.test=127.0.0.1:34567", "0", nil},                             // so, off
		{"site-a.test=10.0.0.1:443", "1", nil},                                // loopback targets only
		{"site-a.test=93.184.215.14:443", "1", nil},                           // even public ones
		{"site-a.test=127.0.0.1", "1", nil},                                   // a port is needed
		{"site-a.test=127.0.0.1:0", "1", nil},                                 // a real one
		{"site-a.test=localhost:443", "1", nil},                               // an IP literal
		{"site-a.test:443=127.0.0.1:34567", "1", nil},                         // names carry no port
		{"https://site-a.test=127.0.0.1:34567", "1", nil},                     // nor a scheme
		{"127.0.0.1=127.0.0.1:34567", "1", nil},                               // nor are addresses
		{"site_a.test=127.0.0.1:34567", "1", nil},                             // host name characters only
		{"site-a.test=127.0.0.1:1,SITE-A.test=127.0.0.1:2", "1", nil},         // each name once
		{"site-a.test", "1", nil},                                             // name=ip:port
		{"=127.0.0.1:34567", "1", nil},                                        // a name
		{",", "1", nil},                                                       // at least one pair
		{"site-a.test=127.0.0.1:34567;site-b.test=127.0.0.1:34568", "1", nil}, // commas separate
	}
	for _, tt := range tests {
		env := map[string]string{"OKF_FETCH_DIAL_OVERRIDE": tt.override, "OKF_FETCH_ALLOW_LOOPBACK": tt.allow}
		opts, err := loadFetch(func(k string) string { return env[k] })
		switch {
		case tt.want == nil && err == nil:
			t.Errorf("%q (allow %q) accepted: %v", tt.override, tt.allow, opts.DialOverride)
		case tt.want != nil && err != nil:
			t.Errorf("%q (allow %q): %v", tt.override, tt.allow, err)
		case tt.want != nil && !maps.Equal(opts.DialOverride, tt.want):
			t.Errorf("%q: %v, want %v", tt.override, opts.DialOverride, tt.want)
		}
	}
}
