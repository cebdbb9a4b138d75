package clientreport

import (
	"net/netip"
	"regexp"
	"strings"
)

// Markers that replace what redaction removes. They hold no digit, '@', '='
// or ':' so no later pass matches inside them.
const (
	markCredential = "[redacted-credential]"
	markToken      = "[redacted-token]"
	markSecret     = "[redacted-secret]"
	markEmail      = "[redacted-email]"
	markIP         = "[redacted-ip]"
	markPhone      = "[redacted-phone]"
)

// The patterns are RE2 (linear time), so no input can make redaction
// superlinear; passes whose matches need a literal are skipped when the text
// lacks it (see redact), which is most of the cost for ordinary stacks.
// Names of secrets are matched as suffixes ("csrf_token", "x-api-key"): a
// false positive ("monkey=3") costs a little text, a miss leaks a secret.
var (
	// Credential headers and cookies, to the end of the line: the value of
	// "Authorization: Basic ..." or "Cookie: a=1; b=2" has no safe part.
	credentialHeader = regexp.MustCompile(`(?i)\b(proxy-authorization|authorization|set-cookie|cookie|x-api-key|x-credito|x-payment|x-csrf-token)(["']?[ \t]*[:=][ \t]*)[^\r\n]*`)
	bearerToken      = regexp.MustCompile(`(?i)\b(bearer)(?:[ \t]+|%20|\+)[A-Za-z0-9._~+/=-]+`)
	urlPattern       = regexp.MustCompile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s\"'<>()\\[\\]{}`\\\\^|]+")
	// A stack frame puts :line:column after the query ("app.js?v=3:12:5").
	trailingPosition = regexp.MustCompile(`(?::\d+){1,2}$`)
	// JWTs: a header segment always starts with eyJ ('{"' in base64url).
	jwtToken = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*`)
	// Other tokens of three long base64url segments; redacted only when
	// they mix letters and digits (see longToken), which property chains
	// such as a.veryLongPropertyName.anotherLongName do not.
	threeSegments  = regexp.MustCompile(`[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)
	prefixedSecret = regexp.MustCompile(`(?:hsk|cred)_[A-Za-z0-9_-]{6,}`)
	// Well-known vendor token shapes: GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
	// github_pat_), OpenAI and Anthropic style (sk-...), Slack (xox?-),
	// AWS access key ids, Google API keys.
	vendorToken    = regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})`)
	jsonSecret     = regexp.MustCompile(`(?i)("[a-z0-9_-]*(?:token|key|secret|password|passwd|pwd|credentials?|cookie|authorization|session|sid)"[ \t]*:[ \t]*")((?:[^"\\]|\\.)*)(")`)
	assignedSecret = regexp.MustCompile(`(?i)((?:token|key|secret|password|passwd|pwd|pass|signature|sig|session|sessid|sid|credentials?|auth|otp|cookie)[ \t]*=[ \t]*)([^\s&#;,"'<>()\[\]{}]+)`)
	// "name: value" only for names that never start an ordinary message:
	// not "token" ("unexpected token: ':'" is a common SyntaxError).
	labelledSecret = regexp.MustCompile(`(?i)\b(password|passwd|pwd|secret|client[_-]?secret|api[_-]?key|apikey|private[_-]?key)([ \t]*:[ \t]*)([^\s"',;]+)`)
	// No trailing \b: "joe@x.com5" must still lose "joe@x.com".
	emailPattern = regexp.MustCompile(`(?i)[a-z0-9._%+-]+(?:@|%40)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,63}`)
	ipv4Pattern  = regexp.MustCompile(`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}`)
	ipv6Pattern  = regexp.MustCompile(`(?i)[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}`)
	// Phone shapes: international (+ and 8 to 15 digits in groups),
	// "(11) 91234-5678", "(415) 555-0100", "11 91234-5678", "91234-5678",
	// "415-555-0100". Bare digit runs are never phones: they are ids and
	// timestamps far more often. isPhone checks the digit count and the
	// characters around, which keeps "app.js:120:15" and dates out.
	phonePattern = regexp.MustCompile(`\+\d{1,3}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,5})){1,6}` +
		`|\(\d{2,3}\) ?\d{3,5}[ .-]?\d{4}` +
		`|(?:\d{2} )?9\d{4}-\d{4}` +
		`|\d{3}[ .-]\d{3}[ .-]\d{4}`)
)

// redact replaces credentials, tokens, secrets, e-mail addresses, IP
// addresses and phone numbers in s with markers, and strips userinfo, query
// and fragment from the URLs in s. The order matters: whole header values
// and bearer tokens go first, so later passes never see half of one; URLs
// lose their query before secret=value pairs are looked for outside them;
// numbers go last, after anything that could contain digits is gone.
func redact(s string) string {
	if s == "" {
		return s
	}
	// A pass is skipped when the text lacks a literal every match of it
	// holds. Case-insensitive literals are looked up in the text as it came
	// in: replacements only put in bracketed markers, which create no new
	// match for a later pass.
	lower := strings.ToLower(s)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	if has("authorization", "cookie", "x-api-key", "x-credito", "x-payment", "x-csrf-token") {
		s = credentialHeader.ReplaceAllString(s, "${1}${2}"+markCredential)
	}
	if has("bearer") {
		s = bearerToken.ReplaceAllString(s, "${1} "+markToken)
	}
	if strings.Contains(s, "://") {
		s = urlPattern.ReplaceAllStringFunc(s, scrubURL)
	}
	if strings.Contains(s, "eyJ") {
		s = jwtToken.ReplaceAllString(s, markToken)
	}
	if hasLongDottedRun(s) {
		s = threeSegments.ReplaceAllStringFunc(s, longToken)
	}
	if strings.Contains(s, "hsk_") || strings.Contains(s, "cred_") {
		s = prefixedSecret.ReplaceAllString(s, markToken)
	}
	if strings.Contains(s, `"`) {
		s = jsonSecret.ReplaceAllString(s, "${1}"+markSecret+"${3}")
	}
	if strings.Contains(s, "=") {
		s = assignedSecret.ReplaceAllString(s, "${1}"+markSecret)
	}
	if has("pass", "pwd", "secret", "key") {
		s = labelledSecret.ReplaceAllString(s, "${1}${2}"+markSecret)
	}
	// After the named secrets, so "api_key=sk-..." reads as a secret.
	if strings.ContainsAny(s, "_-") || strings.Contains(s, "AKIA") || strings.Contains(s, "AIza") {
		s = vendorToken.ReplaceAllString(s, markToken)
	}
	if strings.Contains(s, "@") || strings.Contains(s, "%40") {
		s = emailPattern.ReplaceAllString(s, markEmail)
	}
	if !strings.ContainsAny(s, "0123456789") {
		return s
	}
	s = replaceChecked(s, ipv4Pattern, isIPv4, markIP)
	if strings.Contains(s, "::") || strings.Count(s, ":") >= 7 { // an IPv6 address without "::" has 7 colons
		s = replaceChecked(s, ipv6Pattern, isIPv6, markIP)
	}
	return replaceChecked(s, phonePattern, isPhone, markPhone)
}

// hasLongDottedRun reports whether s holds three runs of 16 or more
// base64url characters joined by dots: the only text threeSegments can
// match, found by a scan far cheaper than the regexp.
func hasLongDottedRun(s string) bool {
	run, segments := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isWordByte(c) || c == '-':
			run++
		case c == '.' && run >= 16:
			segments++
			run = 0
		default:
			segments, run = 0, 0
		}
		if segments == 2 && run >= 16 {
			return true
		}
	}
	return false
}

// scrubURL keeps scheme, host and path of an absolute URL (and a trailing
// :line:column); userinfo becomes a marker, query and fragment go.
func scrubURL(u string) string {
	i := strings.Index(u, "://")
	scheme, rest := u[:i+3], u[i+3:]
	pos := trailingPosition.FindString(rest)
	rest = rest[:len(rest)-len(pos)]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = markCredential + authority[at:]
	}
	if q := strings.IndexAny(tail, "?#"); q >= 0 {
		tail = tail[:q]
	}
	return scheme + authority + tail + pos
}

func longToken(s string) string {
	if strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, isLetter) >= 0 {
		return markToken
	}
	return s
}

// replaceChecked replaces the matches of re in s for which redactable says the
// match, seen with its surroundings, is the thing to redact.
func replaceChecked(s string, re *regexp.Regexp, redactable func(s string, start, end int) bool, marker string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[0] == m[1] || !redactable(s, m[0], m[1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(marker)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isIPv4 accepts a dotted quad of octets that stands alone: not part of a
// longer dotted number, and not a version after a slash ("Chrome/120.0.0.0")
// unless the slash is a URL's "//".
func isIPv4(s string, start, end int) bool {
	if start > 0 {
		c := s[start-1]
		if isWordByte(c) || c == '.' || c == '/' && !(start >= 2 && s[start-2] == '/') {
			return false
		}
	}
	if end < len(s) && (isWordByte(s[end]) || s[end] == '.' && end+1 < len(s) && isDigit(s[end+1])) {
		return false
	}
	_, err := netip.ParseAddr(s[start:end]) // rejects octets over 255
	return err == nil
}

// isIPv6 accepts a valid IPv6 address that stands alone, with at least two
// non-empty groups and four hex digits, which keeps times ("10:30:45"),
// positions (":12:5"), "std::x" and "a::b" out.
func isIPv6(s string, start, end int) bool {
	if start > 0 && (isWordByte(s[start-1]) || s[start-1] == ':' || s[start-1] == '.') {
		return false
	}
	if end < len(s) && (isWordByte(s[end]) || s[end] == ':' || s[end] == '.') {
		return false
	}
	a, err := netip.ParseAddr(s[start:end])
	if err != nil || !a.Is6() {
		return false
	}
	groups, digits := 0, 0
	for _, g := range strings.Split(s[start:end], ":") {
		if g != "" {
			groups++
			digits += len(g)
		}
	}
	return groups >= 2 && digits >= 4
}

// isPhone accepts a phone-shaped match of 8 to 15 digits (E.164's range)
// that is not glued to a word, a dotted or hyphenated number, or a
// :line:column.
func isPhone(s string, start, end int) bool {
	if start > 0 {
		c := s[start-1]
		if isWordByte(c) || c == '.' || c == '-' || c == ':' || c == '+' {
			return false
		}
	}
	if end < len(s) {
		c := s[end]
		if isWordByte(c) || c == '-' || (c == '.' || c == ':') && end+1 < len(s) && isDigit(s[end+1]) {
			return false
		}
	}
	digits := 0
	for i := start; i < end; i++ {
		if isDigit(s[i]) {
			digits++
		}
	}
	return digits >= 8 && digits <= 15
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
