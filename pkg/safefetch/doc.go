// Package safefetch is the one HTTP client through which the service fetches
// URLs that users supply (IndexNow key files and the bundle roots they vouch
// for). It refuses what a public crawler must never touch: plain http,
// addresses that are not public (loopback, private, link-local, CGNAT,
// multicast, unspecified, cloud metadata; IPv4 and IPv6), checked at dial
// time so DNS rebinding cannot slip through; redirects off the requested
// host; bodies over a cap; slow servers (connect and total timeouts).
//
// Interface (implemented in client.go):
//
//	type Options struct {
//	    MaxBytes       int64         // body cap; 0 means 1 MiB
//	    ConnectTimeout time.Duration // 0 means 5 s
//	    Timeout        time.Duration // whole request; 0 means 15 s
//	    MaxRedirects   int           // same-host redirects followed; 0 means 3 (negative: none)
//	    UserAgent      string        // "" means DefaultUserAgent (added)
//	    // Test settings, never set in production:
//	    AllowLoopback bool           // let 127.0.0.0/8 and ::1 through (local TLS test servers)
//	    RootCAs       *x509.CertPool // trust a test server's certificate
//	    DialOverride  map[string]netip.AddrPort // connect to this address for this name (checked as usual)
//	}
//	func New(opts Options) *Client
//	func (c *Client) Get(ctx context.Context, rawURL string) (*Response, error)
//	type Response struct { URL string; Status int; Body []byte; ContentType string }
//	// Every refusal or failure is a *Error: Reason is a short stable
//	// snake_case word (not_https, blocked_address, redirect_off_host,
//	// too_many_redirects, body_too_large, timeout, dns, connect, tls,
//	// http_status), Permanent says whether retrying can help (a 404 or a
//	// blocked address: no; a timeout or a 5xx: yes), Status is the HTTP
//	// status when one was received.
//	type Error struct { URL, Reason string; Status int; Permanent bool; Err error }
//
// A non-2xx answer is an *Error with Reason http_status (Permanent for 4xx
// other than 408/425/429). The Reason words are also exported as Reason*
// constants (error.go), which add one word: canceled, when the caller's own
// context was canceled (not Permanent).
//
// Files: client.go holds Client, Options and the redirect rules; addr.go the
// address classifier and the checking dialer; error.go Error and the mapping
// of transport failures to Reason words.
package safefetch
