package config

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Fetch is the test settings of the guarded HTTP client (pkg/safefetch)
// that verifies IndexNow key files and fetches the submitted roots. All are
// off by default and must stay off in production.
type Fetch struct {
	// AllowLoopback (OKF_FETCH_ALLOW_LOOPBACK, a boolean) lets the client
	// reach 127.0.0.0/8 and ::1: a local TLS server standing in for a domain.
	AllowLoopback bool
	// CAFile (OKF_FETCH_CA_FILE) is a PEM file of certificates trusted
	// instead of the system roots (that server's certificate); RootCAs
	// holds them, nil when CAFile is unset.
	CAFile  string
	RootCAs *x509.CertPool
	// DialOverride (OKF_FETCH_DIAL_OVERRIDE, "site-a.test=127.0.0.1:34567,
	// site-b.test=[::1]:34568") connects to this loopback address for this
	// host name, whatever port the URL names; the URL, the TLS name check
	// and the redirect rules keep the name. It needs AllowLoopback.
	DialOverride map[string]netip.AddrPort
}

// On reports whether any test setting is on (the worker warns).
func (f Fetch) On() bool { return f.AllowLoopback || f.RootCAs != nil }

// loadFetch reads the OKF_FETCH_* variables, and the CA file
// OKF_FETCH_CA_FILE names.
func loadFetch(getenv func(string) string) (Fetch, error) {
	var f Fetch
	if v := getenv("OKF_FETCH_ALLOW_LOOPBACK"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return f, fmt.Errorf("config: OKF_FETCH_ALLOW_LOOPBACK %q must be true or false", v)
		}
		f.AllowLoopback = b
	}
	if f.CAFile = getenv("OKF_FETCH_CA_FILE"); f.CAFile != "" {
		pem, err := os.ReadFile(f.CAFile)
		if err != nil {
			return f, fmt.Errorf("config: OKF_FETCH_CA_FILE: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return f, fmt.Errorf("config: OKF_FETCH_CA_FILE %s holds no PEM certificate", f.CAFile)
		}
		f.RootCAs = pool
	}
	if v := getenv("OKF_FETCH_DIAL_OVERRIDE"); v != "" {
		if !f.AllowLoopback {
			return f, errors.New("config: OKF_FETCH_DIAL_OVERRIDE needs OKF_FETCH_ALLOW_LOOPBACK=1 (its targets are loopback addresses)")
		}
		m, err := parseDialOverride(v)
		if err != nil {
			return f, fmt.Errorf("config: OKF_FETCH_DIAL_OVERRIDE: %w", err)
		}
		f.DialOverride = m
	}
	return f, nil
}

// hostLabel is one label of a host name (ASCII; IDNs in punycode).
var hostLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// parseDialOverride reads "name=ip:port" pairs separated by commas. Names
// are host names (no port, no IP address; matched case-insensitively, a
// trailing dot dropped), each given once; targets are loopback IP literals
// with a port, IPv6 in brackets.
func parseDialOverride(v string) (map[string]netip.AddrPort, error) {
	out := map[string]netip.AddrPort{}
	for _, pair := range strings.Split(v, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		name, target, ok := strings.Cut(pair, "=")
		name = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), ".")
		target = strings.TrimSpace(target)
		if !ok || name == "" || target == "" {
			return nil, fmt.Errorf("%q is not name=ip:port", strings.TrimSpace(pair))
		}
		labels := strings.Split(name, ".")
		for _, l := range labels {
			if !hostLabel.MatchString(l) {
				return nil, fmt.Errorf("%q is not a host name (no scheme, port or path)", name)
			}
		}
		if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
			return nil, fmt.Errorf("%q is an IP address, not a host name", name)
		}
		to, err := netip.ParseAddrPort(target)
		if err != nil || to.Port() == 0 {
			return nil, fmt.Errorf("%s: target %q is not ip:port", name, target)
		}
		if !to.Addr().Unmap().IsLoopback() {
			return nil, fmt.Errorf("%s: target %s is not a loopback address", name, to)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s is given twice", name)
		}
		out[name] = to
	}
	if len(out) == 0 {
		return nil, errors.New("no name=ip:port pair")
	}
	return out, nil
}
