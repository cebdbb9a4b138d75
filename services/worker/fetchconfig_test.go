package main

import (
	"encoding/pem"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// The fetch test settings are off by default, read when set, and refused
// when malformed.
func TestFetchOptionsFromEnv(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	opts, err := fetchOptionsFromEnv(getenv)
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
	if opts, err = fetchOptionsFromEnv(getenv); err != nil || !opts.AllowLoopback || opts.RootCAs == nil {
		t.Fatalf("set: %+v %v", opts, err)
	}

	for k, v := range map[string]string{"OKF_FETCH_ALLOW_LOOPBACK": "maybe", "OKF_FETCH_CA_FILE": filepath.Join(t.TempDir(), "none.pem")} {
		bad := map[string]string{k: v}
		if _, err := fetchOptionsFromEnv(func(k string) string { return bad[k] }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	if err := os.WriteFile(caFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := fetchOptionsFromEnv(func(k string) string { return map[string]string{"OKF_FETCH_CA_FILE": caFile}[k] }); err == nil {
		t.Error("a CA file without PEM accepted")
	}
}
