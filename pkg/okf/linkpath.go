package okf

import (
	"fmt"
	"net/url"
	"path"
	"strings"
)

// Files says whether a slash-separated path, relative to the root of a
// bundle's home (a repository's root, no leading slash), names a file there.
// The caller builds it from what it knows of the home's tree (the sweep's
// listing, the files on disk); the parser only asks it, so it stays pure.
type Files func(path string) bool

// LinkPath returns the file of a bundle's home that a relative link written
// in the bundle at dir ("" at the home's root) names: the #fragment and
// ?query dropped, %-escapes decoded, a directory link ("sub/") naming its
// index.md. ok is false for a link with a scheme or a host ("https://...",
// "//cdn", "mailto:"), an empty one, and one that climbs out of the home.
//
// A link starting with "/" names dir/x, the bundle-absolute reading the
// parser uses by default; when files is given, dir/x does not exist and the
// home's x does, it names the home's x (bundles under okf/ write
// "/okf/x.md" meaning the repository root). Bundle directory first.
func LinkPath(dir, dest string, files Files) (p string, ok bool) {
	p, _, ok = linkPath(dir, dest, files)
	return p, ok
}

// linkPath is LinkPath, also reporting whether the "/x" rule chose the
// home's root over the bundle directory.
func linkPath(dir, dest string, files Files) (p string, fromRoot, ok bool) {
	dest = strings.TrimSpace(dest)
	if strings.HasPrefix(dest, "//") || hasScheme([]byte(dest)) {
		return "", false, false
	}
	if i := strings.IndexAny(dest, "#?"); i >= 0 {
		dest = dest[:i]
	}
	if dest == "" {
		return "", false, false
	}
	if raw, err := url.PathUnescape(dest); err == nil {
		dest = raw
	}
	dirLink := strings.HasSuffix(dest, "/")
	finish := func(p string) (string, bool) {
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", false
		}
		if dirLink || p == "." {
			p = path.Join(p, "index.md")
		}
		return strings.TrimPrefix(p, "./"), true
	}
	dir = strings.Trim(dir, "/")
	if rel, abs := strings.CutPrefix(dest, "/"); abs {
		inBundle, okB := finish(path.Join(".", dir, rel))
		atRoot, okR := finish(path.Join(".", rel))
		if files != nil && okR && dir != "" && (!okB || !files(inBundle)) && files(atRoot) {
			return atRoot, true, true
		}
		return inBundle, false, okB
	}
	p, ok = finish(path.Join(".", dir, dest))
	return p, false, ok
}

// dirDepth is the number of segments of a bundle directory ("" is 0).
func dirDepth(dir string) int {
	dir = strings.Trim(dir, "/")
	if dir == "" || dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// MissingLinksLine is the one sentence that reports a root's concept links
// to missing files (Card.MissingLinks of Card.LocalLinks), shared by okfctl
// lint, the owner status and the card page.
func MissingLinksLine(missing, total int) string {
	noun := "links point"
	if total == 1 {
		noun = "link points"
	}
	return fmt.Sprintf("%d of %d concept %s at missing files", missing, total, noun)
}
