package main

import (
	"crypto/x509"
	"fmt"
	"os"
	"strconv"

	"github.com/okfindex/okf-index/pkg/safefetch"
)

// fetchOptionsFromEnv reads the test settings of the guarded HTTP client
// that verifies IndexNow key files and fetches the submitted roots. Both
// are off by default and must stay off in production:
//
//	OKF_FETCH_ALLOW_LOOPBACK=1   let the client reach 127.0.0.0/8 and ::1
//	                             (a local TLS server standing in for a domain)
//	OKF_FETCH_CA_FILE=<pem file> trust these certificates instead of the
//	                             system roots (that server's certificate)
func fetchOptionsFromEnv(getenv func(string) string) (safefetch.Options, error) {
	var opts safefetch.Options
	if v := getenv("OKF_FETCH_ALLOW_LOOPBACK"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return opts, fmt.Errorf("OKF_FETCH_ALLOW_LOOPBACK %q must be true or false", v)
		}
		opts.AllowLoopback = b
	}
	if path := getenv("OKF_FETCH_CA_FILE"); path != "" {
		pem, err := os.ReadFile(path)
		if err != nil {
			return opts, fmt.Errorf("OKF_FETCH_CA_FILE: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return opts, fmt.Errorf("OKF_FETCH_CA_FILE %s holds no PEM certificate", path)
		}
		opts.RootCAs = pool
	}
	return opts, nil
}
