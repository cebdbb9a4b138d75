package clientreport

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct {
		class string
		in    string
		want  string
	}{
		// Credential headers and cookies.
		{"header", "Authorization: Basic am9lOmh1bnRlcjI=", "Authorization: " + markCredential},
		{"header", "request failed\nauthorization: Bearer abc.def\nnext line", "request failed\nauthorization: " + markCredential + "\nnext line"},
		{"header", "Cookie: __Host-house-auth=s3cr3t; theme=dark", "Cookie: " + markCredential},
		{"header", "document.cookie=sid=abc123; path=/", "document.cookie=" + markCredential},
		{"header", `headers: {"X-Api-Key":"hsk_live_abcdef123456"}`, `headers: {"X-Api-Key":` + markCredential},
		{"header", "X-Credito: cred_9f8e7d6c5b4a", "X-Credito: " + markCredential},
		{"header", "set-cookie: a=b", "set-cookie: " + markCredential},

		// Bearer tokens.
		{"bearer", "sent Bearer abc123XYZ-._~+/= to server", "sent Bearer " + markToken + " to server"},
		{"bearer", "bearer\tQWxhZGRpbjpvcGVuIHNlc2FtZQ", "bearer " + markToken},
		{"bearer", "auth header was BEARER%20tok_live_123", "auth header was BEARER " + markToken},

		// hsk_ and cred_ secrets.
		{"prefixed", "key hsk_live_4f3e2d1c0b9a8f7e revoked", "key " + markToken + " revoked"},
		{"prefixed", "credit cred_ZmFrZS1jcmVkaXQ was empty", "credit " + markToken + " was empty"},
		{"prefixed", "x_hsk_abcdefgh", "x_" + markToken},

		// Vendor tokens.
		{"vendor", "push failed for ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWx", "push failed for " + markToken},
		{"vendor", "pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "pat " + markToken},
		{"vendor", "model call sk-proj-AbCdEf0123456789GhIjKl failed", "model call " + markToken + " failed"},
		{"vendor", "slack xoxb-1234567890-abcdefghij", "slack " + markToken},
		{"vendor", "aws AKIAIOSFODNN7EXAMPLE used", "aws " + markToken + " used"},

		// JWT-like tokens.
		{"jwt", "token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c expired",
			"token " + markToken + " expired"},
		{"jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", markToken},
		{"jwt", "jws ewogICJhbGciOiAiUlMyNTYiCn0.ewogICJzdWIiOiAiMTIzNDU2Nzg5MCIKfQ.dGhpc2lzYXNpZ25hdHVyZXZhbHVl!",
			"jws " + markToken + "!"},

		// URLs: userinfo, query strings and fragments.
		{"url", "GET https://joe:hunter2@api.example.com/v1/x failed", "GET https://" + markCredential + "@api.example.com/v1/x failed"},
		{"url", "ftp://anonymous@files.example/pub", "ftp://" + markCredential + "@files.example/pub"},
		{"url", "Failed to load https://okf.example/busca?q=minha+doenca&token=abc#res", "Failed to load https://okf.example/busca"},
		{"url", "at f (https://cdn.example/app.js?v=3:120:15)", "at f (https://cdn.example/app.js:120:15)"},
		{"url", "render@https://cdn.example/app.js?v=3#x:1:2", "render@https://cdn.example/app.js:1:2"},
		{"url", "wss://host.example:8443/ws?session=abc", "wss://host.example:8443/ws"},
		// Any '@' in an authority is taken as userinfo, even where it is not.
		{"url", "webpack://app@1.2.3/src/x.js", "webpack://" + markCredential + "@1.2.3/src/x.js"},

		// secret=value, JSON and labelled secrets.
		{"assigned", "retry with token=abc123&page=2", "retry with token=" + markSecret + "&page=2"},
		{"assigned", "api_key=AKIAIOSFODNN7EXAMPLE", "api_key=" + markSecret},
		{"assigned", "password = hunter2, user=joe", "password = " + markSecret + ", user=joe"},
		{"assigned", "client_secret=s3cr3t;x-api-key=k", "client_secret=" + markSecret + ";x-api-key=" + markCredential},
		{"assigned", "csrf_token=abc sig=deadbeef", "csrf_token=" + markSecret + " sig=" + markSecret},
		{"json", `body {"user":"joe","password":"hunter\"2","refresh_token":"r1"}`, `body {"user":"joe","password":"` + markSecret + `","refresh_token":"` + markSecret + `"}`},
		{"json", `{"apiKey" : "k-123"}`, `{"apiKey" : "` + markSecret + `"}`},
		{"labelled", "password: hunter2", "password: " + markSecret},
		{"labelled", "Client-Secret:abc123 at x", "Client-Secret:" + markSecret + " at x"},

		// E-mail addresses.
		{"email", "user joe.doe+tag@example.com not found", "user " + markEmail + " not found"},
		{"email", "JOAO_SILVA@Empresa.COM.BR", markEmail},
		{"email", "mailto:a@b.co", "mailto:" + markEmail},
		{"email", "/perfil/maria%40exemplo.org", "/perfil/" + markEmail},
		{"email", "<ana-lu@sub.dominio.io>", "<" + markEmail + ">"},
		{"email", "x@y.com5", markEmail + "5"},

		// IP addresses.
		{"ip", "connect to 203.0.113.42 failed", "connect to " + markIP + " failed"},
		{"ip", "http://192.168.0.10:8080/api", "http://" + markIP + ":8080/api"},
		{"ip", "client 2001:db8:85a3::8a2e:370:7334 blocked", "client " + markIP + " blocked"},
		{"ip", "peer fe80::1ff:fe23:4567:890a", "peer " + markIP},

		// Phone numbers.
		{"phone", "ligue +55 11 91234-5678 agora", "ligue " + markPhone + " agora"},
		{"phone", "ligue (11) 91234-5678", "ligue " + markPhone},
		{"phone", "fixo (11) 3456-7890", "fixo " + markPhone},
		{"phone", "call +1 415-555-0100.", "call " + markPhone + "."},
		{"phone", "call +1 (415) 555-0100", "call " + markPhone},
		{"phone", "call (415) 555-0100", "call " + markPhone},
		{"phone", "call 415-555-0100 or 415.555.0199", "call " + markPhone + " or " + markPhone},
		{"phone", "+44 20 7946 0958", markPhone},
		{"phone", "+33 1 23 45 67 89", markPhone},
		{"phone", "+5511912345678", markPhone},
		{"phone", "tel=+55 (11) 91234-5678", "tel=" + markPhone},
		{"phone", "cel 11 91234-5678", "cel " + markPhone},
		{"phone", "cel 91234-5678", "cel " + markPhone},
	} {
		if got := redact(tc.in); got != tc.want {
			t.Errorf("%s: redact(%q)\n got %q\nwant %q", tc.class, tc.in, got, tc.want)
		}
	}
}

// TestRedactKeeps lists text that looks a little like a secret but must
// survive unchanged: without it, stacks and messages lose what makes them
// useful.
func TestRedactKeeps(t *testing.T) {
	for _, in := range []string{
		"TypeError: Cannot read properties of undefined (reading 'token')",
		"SyntaxError: unexpected token: ':'",
		"SyntaxError: Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON",
		"    at loadList (https://okf.example/assets/app-3f2a1c.js:120:15)",
		"loadList@https://okf.example/assets/app.js:120:15",
		"n/<@https://okf.example/assets/app.js:1:23456",
		"    at async Promise.all (index 0)",
		"    at Object.<anonymous> (webpack-internal:///./src/main.ts:42:7)",
		"at f (node_modules/@babel/runtime/helpers/esm/asyncToGenerator.js:3:24)",
		"app.js:120:15",
		"chunk-415-555-0100.js:1:2",
		"2024-01-15",
		"2024-01-15T10:30:00.000Z",
		"2024-01-15 10:30:45",
		"15/01/2024 10:30",
		"between 2019-2024",
		"1700000000000",
		"request 12345678901 took 123 ms",
		"version 1.2.3, v10.15.7, 0.10.0-beta.1",
		"Chrome/120.0.0.0 Safari/537.36",
		"Chrome/120.0.6099.109",
		"v1.2.3.4",
		"1.2.3.4.5",
		"300.1.1.1",
		"status 404, 500 errors, 42",
		"rgba(0, 0, 0, 0.5) 100% 1e+21",
		"std::vector and a::b and 12:30:45",
		"550e8400-e29b-41d4-a716-446655440000",
		"Error UI-JS-001 in phase load_list",
		"Bearer",
		"CSP: Refused to load the script 'https://cdn.example/x.js' because it violates script-src 'self'",
		"Minified React error #418; visit https://react.dev/errors/418 for the full message",
		"a.veryLongPropertyName.anotherLongPropertyName.third",
		"function cred_ok(){}",
		"+1",
		"+12:00",
		"line 12, column 5, offset 1234",
		"timezone +05:30",
		"value 12 345 678",
	} {
		if got := redact(in); got != in {
			t.Errorf("redact(%q) = %q, want unchanged", in, got)
		}
	}
}

// TestRedactIdempotent: a marker never matches a later pass, so redacting
// twice changes nothing.
func TestRedactIdempotent(t *testing.T) {
	in := "Authorization: x\nBearer y joe@x.com +55 11 91234-5678 203.0.113.1 token=z hsk_abcdefgh https://a:b@h.example/p?q"
	once := redact(in)
	if twice := redact(once); twice != once {
		t.Errorf("redact not idempotent:\n once %q\ntwice %q", once, twice)
	}
	for _, m := range []string{markCredential, markToken, markSecret, markEmail, markIP, markPhone} {
		if strings.ContainsAny(m, "0123456789@=:") {
			t.Errorf("marker %q holds a character a pattern matches", m)
		}
	}
}
