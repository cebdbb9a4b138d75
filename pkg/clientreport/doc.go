// Package clientreport owns the rules behind POST /api/erro-cliente, where
// the browser UI reports its own failures. It parses and validates a report,
// cleans, redacts and caps its text, reduces the User-Agent to a coarse
// family, merges repeats of the same failure and emits one structured log
// event per failure and window. It must not keep an IP address, a cookie, a
// query string or a full User-Agent, write to a database or do HTTP: the
// handler reads the body (capped at MaxBodyBytes), calls Reporter.Report and
// answers 204 with no body whatever the Outcome.
//
// New builds a Reporter from a logger and Options (the merge window, the
// distinct failures held per window, and a clock for tests). Report takes
// one body and the User-Agent and returns an Outcome: Accepted, Merged,
// Invalid or Dropped. Run, started once in its own goroutine, emits each
// window as it closes and flushes what is pending when its context ends;
// Flush emits everything pending at once.
//
// # Merging
//
// Reports of the same failure (same code, phase, path, source, line, column
// and redacted message) within one window become one event with a count. The
// event is emitted when the window closes, not at the first occurrence: one
// event per failure and window keeps a report storm from one broken release
// at one log line a minute, and the sum of count over events is exactly the
// number of accepted reports. The price is latency (at most one window) and
// losing the open window if the process dies without Run's final flush.
//
// Windows are aligned to multiples of Window (whole minutes by default). A
// window is closed by Run's timer, or by the first Report after it ended,
// whichever comes first, so the rule holds even without Run. At most
// MaxPending distinct failures wait per window; further distinct failures are
// dropped (repeats of waiting ones still merge) and counted in one
// "client_error_dropped" event when the window closes. Memory is bounded by
// MaxPending times one report's caps: at most 64 KB each (12000 + 2000 +
// 2×1000 runes of up to 4 bytes), so 64 MB at the default in the worst case;
// ordinary ASCII stacks take a fifth of that.
//
// Within a merged event, stack and its truncation flag are the first
// report's; visivel is true if any report said so; ua_family is "mixed" when
// the reports came from more than one family.
//
// # Validation
//
// The body must be one JSON object of at most MaxBodyBytes. code (string,
// "UI" followed by one or more hyphen-separated groups of ASCII letters and
// digits, at most 40 bytes) and phase (string, ^[a-z][a-z0-9_]{0,39}$) are
// required: without them the report is Invalid and nothing is logged. Codes
// of that shape outside the defined five are accepted, so a UI release can
// add a code before the server knows it. Optional fields of the wrong type
// (line given as "12", visivel as 1, a negative or fractional line) are
// treated as absent rather than invalidating the report: a partly malformed
// report of a real failure is still worth seeing. Field names are matched
// exactly; unknown fields are ignored.
//
// # Text rules
//
// Every kept text is first cleaned (control and invisible format characters
// removed; newlines and tabs kept in message and stack only), then redacted,
// then capped at a rune count: message MaxMessageRunes, stack MaxStackRunes
// (with a truncation flag), path and source 1000. Redacting before capping
// means a secret cut in half by the cap cannot escape its pattern. path and
// source keep only a path: scheme, host, userinfo, query and fragment are
// removed and percent-escapes decoded. Redaction (redact.go) removes
// credential headers and cookies, bearer tokens, hsk_ and cred_ secrets,
// JWT-like tokens, URL userinfo, query strings and fragments of URLs in the
// text, secret-named key=value and JSON values, e-mail addresses, IP
// addresses and phone numbers, replacing each with a [redacted-...] marker.
// Redaction runs before the merge key is computed, so two reports differing
// only in a redacted value merge.
//
// Files: reporter.go holds Reporter, windows and merging; event.go the log
// event; failure.go parsing and field rules; redact.go redaction;
// useragent.go the User-Agent family.
package clientreport
