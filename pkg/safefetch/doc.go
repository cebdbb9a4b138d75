// Package safefetch is the one HTTP client through which the service fetches
// URLs that users supply (IndexNow key files and the bundle roots they vouch
// for). It refuses what a public crawler must never touch: plain http,
// addresses that are not public (loopback, private, link-local, CGNAT,
// multicast, unspecified, cloud metadata; IPv4 and IPv6), checked at dial
// time so DNS rebinding cannot slip through; redirects off the requested
// host; bodies over a cap; slow servers (connect and total timeouts).
//
// New builds a Client from Options, whose zero fields take the Default*
// values (a 1 MiB body cap, 5 s to connect, 15 s in all, 3 same-host
// redirects, the project's User-Agent). Client.Get fetches one URL and
// returns a Response: the final URL, status, body and content type of a 2xx
// answer. Options also holds three test settings that production never
// sets: AllowLoopback, RootCAs and DialOverride (a host name connected at a
// given loopback address, still checked as usual).
//
// Every refusal or failure is an *Error. Its Reason is a short, stable
// snake_case word, one of the Reason* constants (not_https, blocked_address,
// redirect_off_host, too_many_redirects, body_too_large, timeout, canceled,
// dns, connect, tls, http_status); Permanent says whether retrying cannot
// help (a 404 or a blocked address: it cannot; a timeout or a 5xx: it may);
// Status is the HTTP status when one was received. A non-2xx answer has
// Reason http_status and is Permanent for 4xx other than 408, 425 and 429;
// canceled means the caller's own context was canceled (not Permanent).
//
// Files: client.go holds Client, Options and the redirect rules; addr.go the
// address classifier and the checking dialer; error.go Error and the mapping
// of transport failures to Reason words.
package safefetch
