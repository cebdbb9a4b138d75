// Package safefetchtest stands in for domains in tests of code that fetches
// through safefetch: an HTTPS server on loopback whose certificate names the
// test's host names (site-a.test, docs.okf-test.example), reached by those
// names through safefetch's test settings (AllowLoopback, RootCAs,
// DialOverride; for a worker process, the OKF_FETCH_* variables). It is for
// tests only and imports nothing of the service.
package safefetchtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// Server is an HTTPS server on 127.0.0.1 answering for Hosts. Its
// certificate is self-signed, names exactly Hosts, and is its own
// certificate authority: trust CertPEM (or RootCAs) and nothing else.
type Server struct {
	*httptest.Server
	Hosts   []string
	CertPEM []byte // the certificate, PEM-encoded (for OKF_FETCH_CA_FILE)
}

// NewTLSServer starts a Server for h answering for hosts; t's cleanup
// closes it. The handler sees the name a client asked for in r.Host.
func NewTLSServer(t testing.TB, h http.Handler, hosts ...string) *Server {
	t.Helper()
	cert, certPEM, err := selfSigned(hosts)
	if err != nil {
		t.Fatalf("safefetchtest: certificate: %v", err)
	}
	srv := httptest.NewUnstartedServer(h)
	// Refused handshakes are what some tests are after; keep them quiet.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return &Server{Server: srv, Hosts: hosts, CertPEM: certPEM}
}

// Addr is the address the server listens on.
func (s *Server) Addr() netip.AddrPort {
	return netip.MustParseAddrPort(s.Listener.Addr().String())
}

// RootCAs is a pool holding the server's certificate alone.
func (s *Server) RootCAs() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CertPEM)
	return pool
}

// DialOverride maps every host of the server to its address
// (safefetch.Options.DialOverride).
func (s *Server) DialOverride() map[string]netip.AddrPort {
	out := map[string]netip.AddrPort{}
	for _, h := range s.Hosts {
		out[h] = s.Addr()
	}
	return out
}

// DialOverrideEnv is DialOverride in the form of OKF_FETCH_DIAL_OVERRIDE:
// "site-a.test=127.0.0.1:34567,site-b.test=127.0.0.1:34567".
func (s *Server) DialOverrideEnv() string {
	var pairs []string
	for _, h := range s.Hosts {
		pairs = append(pairs, h+"="+s.Addr().String())
	}
	return strings.Join(pairs, ",")
}

// selfSigned makes an ECDSA certificate for hosts that signs itself.
func selfSigned(hosts []string) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{Organization: []string{"OKF Index tests"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              hosts,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
