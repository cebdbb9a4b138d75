// Package source owns the identity of a bundle: where it lives (a file in a
// code-host repository, or a URL on a domain), the stable id derived from
// that place, the URLs a card publishes for it, and whether its path marks it
// as an example or fixture kept out of search. Pure: no I/O.
package source

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

// Origins and ways in (contract section 2.3, DESIGN.md).
const (
	OriginCodeHost = wire.OriginCodeHost
	OriginDomain   = wire.OriginDomain
	ViaSweep       = "sweep"
	ViaIndexNow    = "indexnow"
)

// MaxIDLen is the longest bundle id.
const MaxIDLen = 80

// Repo is a bundle root inside a code-host repository.
type Repo struct {
	Owner  string
	Name   string
	Branch string // "" means the default branch (HEAD)
	Path   string // path of the root index.md inside the repository
}

// FullName is "owner/repo" in lowercase, the contract's source.repo.
func (r Repo) FullName() string {
	return strings.ToLower(r.Owner + "/" + r.Name)
}

// Dir is the bundle directory inside the repository; "" at the root.
func (r Repo) Dir() string {
	d := path.Dir(strings.TrimPrefix(r.Path, "/"))
	if d == "." {
		return ""
	}
	return d
}

func (r Repo) ref() string {
	if r.Branch == "" {
		return "HEAD"
	}
	return r.Branch
}

// Identity is the stable key the bundle id is derived from:
// "owner/repo:path", lowercase owner and repo.
func (r Repo) Identity() string {
	return r.FullName() + ":" + strings.TrimPrefix(r.Path, "/")
}

// RepoURL is the repository's page on GitHub.
func (r Repo) RepoURL() string {
	return "https://github.com/" + r.Owner + "/" + r.Name
}

// IndexURL is the raw root index.md, the contract's index_url.
func (r Repo) IndexURL() string {
	return "https://raw.githubusercontent.com/" + r.Owner + "/" + r.Name + "/" + escapePath(r.ref()) + "/" + escapePath(r.Path)
}

// PageURL is the file's page on the code host, the contract's page_url.
func (r Repo) PageURL() string {
	return r.RepoURL() + "/blob/" + escapePath(r.ref()) + "/" + escapePath(r.Path)
}

// ID is the bundle id: a readable slug of owner, repo and directory plus a
// short hash of the identity, [a-z0-9-], at most MaxIDLen characters.
func (r Repo) ID() string {
	return makeID(r.Owner+"-"+r.Name+"-"+r.Dir(), r.Identity())
}

// Low reports whether the root's path marks an example or a fixture, which
// is kept out of search but still answers on its card.
func (r Repo) Low() bool { return lowPath(r.Path) }

// Site is a bundle root served by a domain and submitted by IndexNow.
type Site struct {
	URL string // absolute https URL of the root index.md
}

// Host is the lowercase hostname of the root URL; "" when it cannot be parsed.
func (s Site) Host() string {
	u, err := url.Parse(s.URL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// SiteURL is the site root, the contract's source.url for a domain bundle.
func (s Site) SiteURL() string {
	u, err := url.Parse(s.URL)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/"
}

// Path is the path of the root index.md on the site, without the leading "/".
func (s Site) Path() string {
	u, err := url.Parse(s.URL)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.EscapedPath(), "/")
}

// Dir is the bundle directory on the site; "" at the site root.
func (s Site) Dir() string {
	d := path.Dir(s.Path())
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// ID is the bundle id of a domain bundle, derived from its root URL.
func (s Site) ID() string {
	return makeID(s.Host()+"-"+s.Dir(), s.URL)
}

// Low reports whether the root's path marks an example or a fixture.
func (s Site) Low() bool { return lowPath(s.Path()) }

var lowSegments = map[string]bool{
	"test": true, "tests": true, "testdata": true, "fixtures": true,
	"examples": true, "example": true,
}

func lowPath(p string) bool {
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		if lowSegments[seg] {
			return true
		}
	}
	return false
}

func makeID(readable, identity string) string {
	sum := sha256.Sum256([]byte(identity))
	hash := hex.EncodeToString(sum[:])[:10]
	var b strings.Builder
	dash := true // suppress leading and repeated dashes
	for _, r := range strings.ToLower(readable) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	slug := strings.TrimRight(b.String(), "-")
	if max := MaxIDLen - len(hash) - 1; len(slug) > max {
		slug = strings.TrimRight(slug[:max], "-")
	}
	if slug == "" {
		return hash
	}
	return slug + "-" + hash
}

func escapePath(p string) string {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// Repository states (contract 2.4).
const (
	StateActive   = "active"
	StateStalled  = "stalled"
	StateArchived = "archived"
	StateGone     = "gone"
)

// StaleAfter is how long without a push makes a repository stalled.
const StaleAfter = 365 * 24 * time.Hour

// RepoState classifies a repository by DESIGN.md's rules: gone when it no
// longer resolves, archived when the host says so, stalled when the last push
// is older than StaleAfter, else active.
func RepoState(gone, archived bool, pushedAt *time.Time, now time.Time) string {
	switch {
	case gone:
		return StateGone
	case archived:
		return StateArchived
	case pushedAt != nil && now.Sub(*pushedAt) > StaleAfter:
		return StateStalled
	default:
		return StateActive
	}
}
