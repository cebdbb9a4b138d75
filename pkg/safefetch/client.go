package safefetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Defaults applied by New to zero Options fields.
const (
	DefaultMaxBytes       = 1 << 20
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 15 * time.Second
	DefaultMaxRedirects   = 3
	DefaultUserAgent      = "OKF-Index/1.0 (+https://github.com/okfindex/okf-index)"
)

// Options configures a Client. Zero fields take the defaults above.
type Options struct {
	MaxBytes       int64         // body cap; 0 means 1 MiB
	ConnectTimeout time.Duration // TCP connect and TLS handshake; 0 means 5 s
	Timeout        time.Duration // whole request including the body; 0 means 15 s
	MaxRedirects   int           // same-host redirects followed; 0 means 3, negative means none
	UserAgent      string        // User-Agent header; "" means DefaultUserAgent

	// Test settings, never set in production:
	AllowLoopback bool           // let 127.0.0.0/8 and ::1 through (local TLS test servers)
	RootCAs       *x509.CertPool // trust a test server's certificate; nil means the system roots
	// DialOverride maps host names (case-insensitive, no port) to the
	// address connected to in their place, whatever port the URL names:
	// a hosts file that lets https://site-a.test/ reach a local TLS server
	// at 127.0.0.1:34567. Only the connect changes: the URL, the TLS server
	// name and certificate check, and the same-host redirect rule still
	// use the name, and the address is checked like a resolved one (a
	// loopback target needs AllowLoopback).
	DialOverride map[string]netip.AddrPort
}

// Client fetches user-supplied https URLs under the guards the package
// doc describes. It is safe for concurrent use; build one and share it.
type Client struct {
	opts   Options
	dialer *dialer
	http   *http.Client
}

// Response is a successful (2xx) answer with its whole body.
type Response struct {
	URL         string // final URL, after same-host redirects
	Status      int
	Body        []byte
	ContentType string
}

// New returns a Client for opts, filling zero fields with the defaults.
func New(opts Options) *Client {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	} else if opts.MaxRedirects < 0 {
		opts.MaxRedirects = 0
	}
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	c := &Client{opts: opts, dialer: newDialer(opts.ConnectTimeout, opts.AllowLoopback)}
	for name, to := range opts.DialOverride {
		if c.dialer.override == nil {
			c.dialer.override = map[string]netip.AddrPort{}
		}
		c.dialer.override[hostKey(name)] = to
	}
	transport := &http.Transport{
		// Never a proxy: it would connect on our behalf to addresses
		// the dialer has not checked.
		Proxy:       nil,
		DialContext: c.dialer.DialContext,
		TLSClientConfig: &tls.Config{
			RootCAs:    opts.RootCAs,
			MinVersion: tls.VersionTLS12,
		},
		TLSHandshakeTimeout: opts.ConnectTimeout,
		// No transparent gzip: the cap then bounds the bytes we hold,
		// not the bytes on the wire.
		DisableCompression:     true,
		MaxIdleConns:           16,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
		ResponseHeaderTimeout:  opts.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	c.http = &http.Client{Transport: transport, CheckRedirect: c.checkRedirect}
	return c
}

// checkRedirect follows a redirect only to the same scheme, host and port,
// and at most MaxRedirects times.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if !sameOrigin(first, req.URL) {
		return &Error{Reason: ReasonRedirectOffHost, Permanent: true,
			Err: fmt.Errorf("redirect to %s", req.URL.Redacted())}
	}
	if len(via) > c.opts.MaxRedirects {
		return &Error{Reason: ReasonTooManyRedirects, Permanent: true,
			Err: fmt.Errorf("more than %d redirects", c.opts.MaxRedirects)}
	}
	return nil
}

// sameOrigin reports whether b is https on the same host (case-insensitive)
// and port as a.
func sameOrigin(a, b *url.URL) bool {
	return b.Scheme == "https" &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

// effectivePort is u's port, or 443 when it has none.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return "443"
}

// parseHTTPS accepts only absolute https URLs with a host.
func parseHTTPS(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return nil, fmt.Errorf("scheme %q is not https", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("no host")
	}
	u.Scheme = "https"
	return u, nil
}

// Get fetches rawURL and returns its body when the answer is 2xx. Every
// other outcome is an *Error naming the reason.
func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error) {
	u, err := parseHTTPS(rawURL)
	if err != nil {
		return nil, &Error{URL: rawURL, Reason: ReasonNotHTTPS, Permanent: true, Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &Error{URL: rawURL, Reason: ReasonNotHTTPS, Permanent: true, Err: err}
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, classifyErr(ctx, rawURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(rawURL, resp.StatusCode)
	}
	if resp.ContentLength > c.opts.MaxBytes {
		return nil, c.tooLarge(rawURL, resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBytes+1))
	if err == nil && ctx.Err() != nil {
		// net/http can end a body cut by cancellation with a clean EOF;
		// a body read past the deadline may be truncated, never trust it.
		err = context.Cause(ctx)
	}
	if err != nil {
		return nil, classifyErr(ctx, rawURL, err)
	}
	if int64(len(body)) > c.opts.MaxBytes {
		return nil, c.tooLarge(rawURL, -1)
	}
	return &Response{
		URL:         resp.Request.URL.String(),
		Status:      resp.StatusCode,
		Body:        body,
		ContentType: resp.Header.Get("Content-Type"),
	}, nil
}

// tooLarge builds the body_too_large error; declared is the announced
// Content-Length, or -1 when the body simply ran past the cap.
func (c *Client) tooLarge(url string, declared int64) *Error {
	cause := fmt.Errorf("body exceeds %d bytes", c.opts.MaxBytes)
	if declared >= 0 {
		cause = fmt.Errorf("declared length %d exceeds %d bytes", declared, c.opts.MaxBytes)
	}
	return &Error{URL: url, Reason: ReasonBodyTooLarge, Permanent: true, Err: cause}
}
