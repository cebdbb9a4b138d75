package okf

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
)

// resolver turns link destinations of one root into absolute concept URLs.
type resolver struct {
	base *url.URL // the root index.md
	self string   // the root's own URL without fragment, to spot self-links
	dir  string   // the bundle directory as a URL prefix, "" when unknown

	// files, bundleDir and depth come from Root: what the caller knows of
	// the home's tree, the bundle directory in it and its number of
	// segments. files is nil when the tree is unknown.
	files     Files
	bundleDir string
	depth     int
}

// newResolver parses the root URL, which must be absolute (https://...,
// file:///...): anything else is a caller error.
func newResolver(rootURL string) (resolver, error) {
	return newRootResolver(Root{URL: rootURL})
}

// newRootResolver is newResolver for a root whose home tree may be known
// (Root.Files): then "/x" links follow LinkPath's rule.
func newRootResolver(root Root) (resolver, error) {
	rootURL := root.URL
	base, err := url.Parse(rootURL)
	if err != nil {
		return resolver{}, err
	}
	if !base.IsAbs() {
		return resolver{}, fmt.Errorf("%q is not an absolute URL", rootURL)
	}
	self := *base
	self.Fragment, self.RawFragment = "", ""
	r := resolver{base: base, self: self.String(), files: root.Files, bundleDir: root.Dir, depth: dirDepth(root.Dir)}
	if probe := base.ResolveReference(&url.URL{Path: "x"}).String(); strings.HasSuffix(probe, "/x") {
		r.dir = strings.TrimSuffix(probe, "x")
	}
	return r, nil
}

// resolve returns the absolute URL a concept link points to, and false when
// the destination is not a concept target.
//
//   - http and https links stay as written (spaces, allowed between <...>,
//     are escaped).
//   - Other schemes (mailto:, javascript:, ftp:, data:, ...) are not concepts.
//   - A link starting with "/" resolves against the bundle directory (the
//     directory of the root URL), not the host root: "/x.md" is "./x.md";
//     but when the home's tree is known (Root.Files), the bundle has no x.md
//     and the home's root has one, it resolves against the home's root
//     (LinkPath).
//   - "x", "./x" and "../x" resolve against the root URL; "../" may leave the
//     bundle directory and is kept.
//   - A path ending in "/" is a directory link and gets "index.md".
//   - The #fragment is kept; counting distinct concepts ignores it.
//   - Empty destinations, same-document links ("#section") and links back to
//     the root itself are not concepts.
func (r resolver) resolve(dest string) (string, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return "", false
	}
	if r.files != nil && r.depth > 0 && strings.HasPrefix(dest, "/") && !strings.HasPrefix(dest, "//") {
		if _, fromRoot, ok := linkPath(r.bundleDir, dest, r.files); ok && fromRoot {
			// Climb out of the bundle directory to the home's root.
			dest = strings.Repeat("../", r.depth) + strings.TrimLeft(dest, "/")
		}
	}
	if r.dir != "" && isPlainPath(dest) {
		out := r.dir + strings.TrimPrefix(dest, "/")
		if strings.HasSuffix(out, "/") {
			out += "index.md"
		}
		if out == r.self {
			return "", false
		}
		return out, true
	}
	ref, err := url.Parse(dest)
	if err != nil {
		return "", false
	}
	switch {
	case ref.Scheme == "http" || ref.Scheme == "https":
		if ref.Host == "" {
			return "", false
		}
		if strings.ContainsAny(dest, " \t\n") {
			return ref.String(), true // <https://x/a b> is written with a space
		}
		return dest, true
	case ref.Scheme != "":
		return "", false
	}
	local := ref.Host == ""
	if local && strings.HasPrefix(ref.Path, "/") {
		ref.Path = "." + ref.Path
		if ref.RawPath != "" {
			ref.RawPath = "." + ref.RawPath
		}
	}
	abs := r.base.ResolveReference(ref)
	if local && strings.HasSuffix(abs.Path, "/") {
		abs.Path += "index.md"
		if abs.RawPath != "" {
			abs.RawPath += "index.md"
		}
	}
	out := abs.String()
	if withoutFragment(out) == r.self {
		return "", false
	}
	return out, true
}

// isPlainPath reports whether dest is a relative path that resolves by plain
// concatenation with the bundle directory: only unreserved characters and
// '/', no empty, "." or ".." segment, no escapes, query or fragment. Real
// roots are nearly all plain, and the shortcut keeps 10,000 entries cheap;
// everything else goes through net/url.
func isPlainPath(dest string) bool {
	prev := byte('/')
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '~':
		case c == '.':
			if prev == '/' {
				return false // a segment starting with '.': ".", "..", ".okf"
			}
		case c == '/':
			if prev == '/' && i > 0 {
				return false
			}
		default:
			return false
		}
		prev = c
	}
	return true
}

// withoutFragment drops a URL's #fragment.
func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// relativeLink reports whether a body link destination points inside the
// bundle's own tree (no scheme, no host), and returns it without its
// #fragment, as written. Same-document links ("#x") give nothing.
func relativeLink(dest []byte) ([]byte, bool) {
	dest = bytes.TrimSpace(dest)
	if bytes.HasPrefix(dest, []byte("//")) || hasScheme(dest) {
		return nil, false
	}
	if i := bytes.IndexByte(dest, '#'); i >= 0 {
		dest = dest[:i]
	}
	return dest, len(dest) > 0
}

// hasScheme reports whether a URL reference starts with a scheme
// ("https:", "mailto:"): a letter, then letters, digits, '+', '-' or '.', then
// ':' (RFC 3986 section 3.1).
func hasScheme(ref []byte) bool {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}
