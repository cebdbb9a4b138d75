package githubtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Repo is one repository as the server stores it. Zero values are filled in
// by AddRepo: DefaultBranch "main", CreatedAt/PushedAt spread
// deterministically over 2024-2026 from a hash of the name.
type Repo struct {
	Owner         string
	Name          string
	Description   string
	Topics        []string
	Files         map[string][]byte // path relative to the repository root → content
	Stars         int
	Forks         int
	CreatedAt     time.Time
	PushedAt      time.Time
	Archived      bool
	Fork          bool
	Language      string // primary language, "" for none
	License       string // SPDX id, "" for none; a non-SPDX text becomes NOASSERTION
	DefaultBranch string
}

// FullName is "owner/name".
func (r *Repo) FullName() string { return r.Owner + "/" + r.Name }

// repoKey is the case-insensitive lookup key, as GitHub resolves names.
func repoKey(owner, name string) string { return strings.ToLower(owner + "/" + name) }

// repoSnap is an immutable snapshot of a repository; mutators replace the
// snapshot, so resolvers that hold one never see a half-applied change.
type repoSnap struct {
	Repo
	dbID  int64    // REST numeric id
	paths []string // sorted file paths
}

func newSnap(r Repo, id int64) *repoSnap {
	s := &repoSnap{Repo: r, dbID: id}
	s.Files = maps.Clone(r.Files)
	if s.Files == nil {
		s.Files = map[string][]byte{}
	}
	s.Topics = slices.Clone(r.Topics)
	s.paths = slices.Sorted(maps.Keys(s.Files))
	return s
}

// fill sets defaults on a repo before it is stored.
func (r *Repo) fill() {
	if r.DefaultBranch == "" {
		r.DefaultBranch = "main"
	}
	h := hashOf(r.FullName())
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	span := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).Sub(start)
	if r.CreatedAt.IsZero() {
		r.CreatedAt = start.Add(time.Duration(h%uint64(span/time.Second)) * time.Second)
	}
	if r.PushedAt.IsZero() {
		end := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		left := end.Sub(r.CreatedAt)
		r.PushedAt = r.CreatedAt.Add(time.Duration((h>>20)%uint64(left/time.Second)) * time.Second)
	}
}

func hashOf(s string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(s))
	return f.Sum64()
}

// gitBlobOID is the real git object id of a blob with this content.
func gitBlobOID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// treeEntry is one child of a directory.
type treeEntry struct {
	name, path string
	isTree     bool
}

// dirEntries lists the direct children of dir ("" = root), sorted by name;
// ok is false when dir is neither the root nor a directory of the repo.
func (s *repoSnap) dirEntries(dir string) (entries []treeEntry, ok bool) {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	i, _ := slices.BinarySearch(s.paths, prefix)
	seen := map[string]bool{}
	for ; i < len(s.paths) && strings.HasPrefix(s.paths[i], prefix); i++ {
		rest := s.paths[i][len(prefix):]
		name, _, sub := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		entries = append(entries, treeEntry{name: name, path: prefix + name, isTree: sub})
	}
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(a.name, b.name) })
	return entries, dir == "" || len(entries) > 0
}

// treeOID is a deterministic id for a directory (a hash of its listing and
// its children's ids; not byte-identical to git's tree hash).
func (s *repoSnap) treeOID(dir string) string {
	entries, _ := s.dirEntries(dir)
	h := sha1.New()
	fmt.Fprintf(h, "tree %s\x00", dir)
	for _, e := range entries {
		if e.isTree {
			fmt.Fprintf(h, "40000 %s %s\n", e.name, s.treeOID(e.path))
		} else {
			fmt.Fprintf(h, "100644 %s %s\n", e.name, gitBlobOID(s.Files[e.path]))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// headOID is a deterministic commit id for the default branch head.
func (s *repoSnap) headOID() string {
	h := sha1.Sum([]byte("commit " + s.FullName() + " " + s.treeOID("") + " " + s.PushedAt.String()))
	return hex.EncodeToString(h[:])
}

// readme returns the root README (README.md, README, README.markdown, any case).
func (s *repoSnap) readme() []byte {
	for _, p := range s.paths {
		if strings.Contains(p, "/") {
			continue
		}
		base := strings.ToLower(strings.TrimSuffix(p, path.Ext(p)))
		if base == "readme" {
			return s.Files[p]
		}
	}
	return nil
}

// isBinary mirrors git's heuristic: a NUL byte in the first 8000 bytes, or
// content that is not valid UTF-8.
func isBinary(b []byte) bool {
	head := b
	if len(head) > 8000 {
		head = head[:8000]
	}
	return slices.Contains(head, 0) || !utf8.Valid(b)
}
