package searchtext

import "strings"

// repoOf returns the lowercase "owner/repo" that q names, with its owner and
// repository as typed, or "" when q is not a repository. It reads:
//   - owner/repo, with or without ".git" and a trailing slash;
//   - github.com/owner/repo and http(s)://(www.)github.com/owner/repo, which
//     may go on with a path (/tree/main/docs, /blob/x/index.md), a query or a
//     fragment, as a link copied from a browser does;
//   - the clone addresses git@github.com:owner/repo(.git) and
//     ssh://, git:// and git+https:// ones;
//   - raw.githubusercontent.com/owner/repo/<branch>/<path>, the address of
//     a file (an index.md) as served raw;
//   - any of these inside <angle brackets>, as Markdown autolinks write them.
//
// A bare a/b/c is not a repository: it is more likely a path being searched.
// owner is [A-Za-z0-9][A-Za-z0-9-]{0,38} and repo [A-Za-z0-9._-]{1,100},
// as GitHub allows.
func repoOf(q string) (repo, owner, name string) {
	repo, owner, name, _ = repoDirOf(q)
	return repo, owner, name
}

// repoDirOf is repoOf, and the folder of the repository a link points at:
// the path after /tree/<branch>/ or /blob/<branch>/ (after <branch>/ of a
// raw.githubusercontent.com address), without a file name
// ending in .md ("bundles/rezepte" of .../tree/main/bundles/rezepte or of
// .../blob/main/bundles/rezepte/index.md), "" for the repository's root.
// A branch name holding a slash is read as its first segment.
func repoDirOf(q string) (repo, owner, name, dir string) {
	path, host, ok := stripHost(q)
	if !ok {
		return "", "", "", ""
	}
	hosted := host != hostNone
	if hosted {
		if i := strings.IndexAny(path, "?#"); i >= 0 {
			path = path[:i]
		}
	}
	segs := strings.Split(path, "/")
	if len(segs) < 2 {
		return "", "", "", ""
	}
	owner, name = segs[0], segs[1]
	rest := segs[2:]
	if len(rest) == 1 && rest[0] == "" {
		rest = nil // a trailing slash
	}
	if len(rest) > 0 && !hosted {
		return "", "", "", ""
	}
	if trimmed := strings.TrimSuffix(name, ".git"); trimmed != "" {
		name = trimmed
	}
	if !validOwner(owner) || !validRepoName(name) {
		return "", "", "", ""
	}
	var folders []string
	switch {
	case host == hostRaw && len(rest) >= 2: // <branch>/<path>
		folders = rest[1:]
	case host == hostGitHub && len(rest) >= 3 && (rest[0] == "tree" || rest[0] == "blob"):
		folders = rest[2:]
	}
	if len(folders) > 0 {
		if last := folders[len(folders)-1]; last == "" || strings.HasSuffix(strings.ToLower(last), ".md") {
			folders = folders[:len(folders)-1]
		}
		dir = strings.Join(folders, "/")
	}
	return strings.ToLower(owner + "/" + name), owner, name, dir
}

// The hosts a repository address may name.
const (
	hostNone   = iota // owner/repo alone
	hostGitHub        // github.com, by link or clone address
	hostRaw           // raw.githubusercontent.com
)

// stripHost removes what comes before owner/repo in a repository address:
// enclosing angle brackets, a scheme (http(s), ssh, git, git+https,
// git+ssh), a git@ user, www. and the host, github.com (followed by '/',
// or by ':' in a clone address) or raw.githubusercontent.com. host says
// which host was there; ok is false for any other host, and for a scheme
// or user without one.
func stripHost(q string) (path string, host int, ok bool) {
	if len(q) > 2 && q[0] == '<' && q[len(q)-1] == '>' {
		q = q[1 : len(q)-1]
	}
	path = q
	hasPrefix := func(prefix string) bool {
		if len(path) >= len(prefix) && strings.EqualFold(path[:len(prefix)], prefix) {
			path = path[len(prefix):]
			return true
		}
		return false
	}
	schemed := false
	for _, scheme := range []string{"https://", "http://", "ssh://", "git://", "git+https://", "git+ssh://"} {
		if hasPrefix(scheme) {
			schemed = true // a host must follow
			break
		}
	}
	schemed = hasPrefix("git@") || schemed
	hasPrefix("www.")
	switch {
	case hasPrefix("github.com/"), hasPrefix("github.com:"):
		return path, hostGitHub, true
	case hasPrefix("raw.githubusercontent.com/"):
		return path, hostRaw, true
	}
	return path, hostNone, !schemed && len(path) == len(q)
}

func validOwner(s string) bool {
	if len(s) == 0 || len(s) > 39 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func validRepoName(s string) bool {
	if len(s) == 0 || len(s) > 100 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIAlnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-' {
			return false
		}
	}
	return true
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
