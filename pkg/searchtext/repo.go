package searchtext

import "strings"

// repoOf returns the lowercase "owner/repo" that q names, with its owner and
// repository as typed, or "" when q is not a repository. It reads:
//   - owner/repo, with or without ".git" and a trailing slash;
//   - github.com/owner/repo and http(s)://(www.)github.com/owner/repo, which
//     may go on with a path (/tree/main/docs, /blob/x/index.md), a query or a
//     fragment, as a link copied from a browser does.
//
// A bare a/b/c is not a repository: it is more likely a path being searched.
// owner is [A-Za-z0-9][A-Za-z0-9-]{0,38} and repo [A-Za-z0-9._-]{1,100},
// as GitHub allows.
func repoOf(q string) (repo, owner, name string) {
	repo, owner, name, _ = repoDirOf(q)
	return repo, owner, name
}

// repoDirOf is repoOf, and the folder of the repository a link points at:
// the path after /tree/<branch>/ or /blob/<branch>/, without a file name
// ending in .md ("bundles/rezepte" of .../tree/main/bundles/rezepte or of
// .../blob/main/bundles/rezepte/index.md), "" for the repository's root.
// A branch name holding a slash is read as its first segment.
func repoDirOf(q string) (repo, owner, name, dir string) {
	path, hosted, ok := stripHost(q)
	if !ok {
		return "", "", "", ""
	}
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
	if len(rest) >= 3 && (rest[0] == "tree" || rest[0] == "blob") {
		folders := rest[2:]
		if last := folders[len(folders)-1]; last == "" || strings.HasSuffix(strings.ToLower(last), ".md") {
			folders = folders[:len(folders)-1]
		}
		dir = strings.Join(folders, "/")
	}
	return strings.ToLower(owner + "/" + name), owner, name, dir
}

// stripHost removes a leading http(s)://, www. and github.com/ from q.
// hosted says github.com was there; ok is false for any other host.
func stripHost(q string) (path string, hosted, ok bool) {
	path = q
	for _, prefix := range []string{"https://", "http://", "www."} {
		if len(path) >= len(prefix) && strings.EqualFold(path[:len(prefix)], prefix) {
			path = path[len(prefix):]
			if prefix != "www." {
				hosted = true // a scheme: github.com must follow
			}
		}
	}
	const host = "github.com/"
	if len(path) >= len(host) && strings.EqualFold(path[:len(host)], host) {
		return path[len(host):], true, true
	}
	return path, false, !hosted && len(path) == len(q)
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
