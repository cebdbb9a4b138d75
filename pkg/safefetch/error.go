package safefetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
)

// Reason words carried by Error.Reason. They are stable: callers record
// them and match on them.
const (
	ReasonNotHTTPS         = "not_https"          // scheme is not https, or the URL is malformed
	ReasonBlockedAddress   = "blocked_address"    // a resolved address is not public
	ReasonRedirectOffHost  = "redirect_off_host"  // redirect to another host or scheme
	ReasonTooManyRedirects = "too_many_redirects" // more than MaxRedirects same-host redirects
	ReasonBodyTooLarge     = "body_too_large"     // body longer than MaxBytes
	ReasonTimeout          = "timeout"            // connect or total timeout
	ReasonCanceled         = "canceled"           // the caller's context was canceled
	ReasonDNS              = "dns"                // the host name did not resolve
	ReasonConnect          = "connect"            // TCP connection failed
	ReasonTLS              = "tls"                // handshake or certificate failure
	ReasonHTTPStatus       = "http_status"        // the server answered non-2xx
)

// Error is every refusal or failure Get returns. URL is the URL passed to
// Get (not a redirect target); Reason is one of the Reason* words;
// Permanent says whether retrying cannot help; Status is the HTTP status
// when one was received; Err is the underlying cause.
type Error struct {
	URL       string
	Reason    string
	Status    int
	Permanent bool
	Err       error
}

// Error formats the failure as "safefetch: <url>: <reason>[: cause]".
func (e *Error) Error() string {
	msg := "safefetch: " + e.URL + ": " + e.Reason
	if e.Status != 0 {
		msg += fmt.Sprintf(" %d", e.Status)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// statusError builds the http_status error for a non-2xx answer: permanent
// for 4xx other than 408 (timeout), 425 (too early) and 429 (rate limit).
func statusError(url string, status int) *Error {
	permanent := status >= 400 && status < 500 && status != 408 && status != 425 && status != 429
	return &Error{URL: url, Reason: ReasonHTTPStatus, Status: status, Permanent: permanent,
		Err: fmt.Errorf("server answered %d", status)}
}

// classifyErr turns an error from the HTTP client (or a body read) into an
// *Error. ctx is the request's own context, whose expiry means a timeout.
func classifyErr(ctx context.Context, url string, err error) *Error {
	var own *Error
	if errors.As(err, &own) {
		out := *own
		out.URL = url
		return &out
	}
	e := &Error{URL: url, Err: err}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recordErr tls.RecordHeaderError
	var alertErr tls.AlertError
	var netErr net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e.Reason = ReasonTimeout
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		e.Reason = ReasonCanceled
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Reason = ReasonTimeout
	case errors.As(err, &dnsErr):
		e.Reason = ReasonDNS
		e.Permanent = dnsErr.IsNotFound
	case errors.As(err, &certErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalidCert):
		// A certificate that does not verify will not verify on retry;
		// the owner fixes it and pings again.
		e.Reason = ReasonTLS
		e.Permanent = true
	case errors.As(err, &recordErr), errors.As(err, &alertErr):
		e.Reason = ReasonTLS
	default:
		// Refused connections, resets, truncated answers: worth a retry.
		e.Reason = ReasonConnect
	}
	return e
}
