package githubtest

import (
	"path"
	"strings"
	"unicode/utf8"

	graphql "github.com/graph-gophers/graphql-go"
)

// MaxBlobText is the size above which Blob.text is cut and isTruncated is
// true (GitHub truncates large blob text; 512 KiB here).
const MaxBlobText = 512 << 10

type objKind int

const (
	kindBlob objKind = iota
	kindTree
	kindCommit
)

// objResolver resolves the GitObject interface and its Blob, Tree and
// Commit implementations.
type objResolver struct {
	r    *repoSnap
	kind objKind
	path string // blob path or tree dir ("" = root)
}

// Object resolves Repository.object(expression:, oid:).
// expression is "<rev>:<path>" or "<rev>", rev being HEAD, the default
// branch name or refs/heads/<default>; "HEAD:" is the root tree.
func (r *repoResolver) Object(args struct {
	Expression *string
	Oid        *gitObjectID
}) *objResolver {
	s := r.r
	if args.Expression == nil {
		if args.Oid == nil {
			return nil
		}
		return s.findOID(string(*args.Oid))
	}
	rev, p, hasPath := strings.Cut(*args.Expression, ":")
	if rev != "HEAD" && rev != s.DefaultBranch && rev != "refs/heads/"+s.DefaultBranch {
		return nil
	}
	if len(s.paths) == 0 {
		return nil
	}
	if !hasPath {
		return &objResolver{r: s, kind: kindCommit}
	}
	p = strings.Trim(p, "/")
	if _, ok := s.Files[p]; ok {
		return &objResolver{r: s, kind: kindBlob, path: p}
	}
	if _, ok := s.dirEntries(p); ok {
		return &objResolver{r: s, kind: kindTree, path: p}
	}
	return nil
}

func (s *repoSnap) findOID(oid string) *objResolver {
	if s.headOID() == oid {
		return &objResolver{r: s, kind: kindCommit}
	}
	for _, p := range s.paths {
		if gitBlobOID(s.Files[p]) == oid {
			return &objResolver{r: s, kind: kindBlob, path: p}
		}
	}
	if s.treeOID("") == oid {
		return &objResolver{r: s, kind: kindTree}
	}
	return nil
}

func (o *objResolver) ToBlob() (*objResolver, bool)   { return o, o.kind == kindBlob }
func (o *objResolver) ToTree() (*objResolver, bool)   { return o, o.kind == kindTree }
func (o *objResolver) ToCommit() (*objResolver, bool) { return o, o.kind == kindCommit }

func (o *objResolver) Oid() gitObjectID {
	switch o.kind {
	case kindBlob:
		return gitObjectID(gitBlobOID(o.r.Files[o.path]))
	case kindTree:
		return gitObjectID(o.r.treeOID(o.path))
	default:
		return gitObjectID(o.r.headOID())
	}
}
func (o *objResolver) AbbreviatedOid() string    { return string(o.Oid())[:7] }
func (o *objResolver) ID() graphql.ID            { return graphql.ID("O_" + string(o.Oid())) }
func (o *objResolver) Repository() *repoResolver { return &repoResolver{o.r} }

// Blob fields.

func (o *objResolver) ByteSize() int32 { return int32(len(o.r.Files[o.path])) }
func (o *objResolver) IsBinary() *bool {
	b := isBinary(o.r.Files[o.path])
	return &b
}
func (o *objResolver) IsTruncated() bool { return len(o.r.Files[o.path]) > MaxBlobText }

// Text is the content as UTF-8, null for binary blobs, cut to MaxBlobText
// (on a rune boundary) when larger.
func (o *objResolver) Text() *string {
	b := o.r.Files[o.path]
	if isBinary(b) {
		return nil
	}
	if len(b) > MaxBlobText {
		b = b[:MaxBlobText]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	t := string(b)
	return &t
}

// Tree fields.

func (o *objResolver) Entries() *[]*entryResolver {
	entries, _ := o.r.dirEntries(o.path)
	out := make([]*entryResolver, 0, len(entries))
	for _, e := range entries {
		out = append(out, &entryResolver{r: o.r, e: e})
	}
	return &out
}

// Commit fields.

func (o *objResolver) CommittedDate() dateTime { return fmtTime(o.r.PushedAt) }
func (o *objResolver) PushedDate() *dateTime {
	d := fmtTime(o.r.PushedAt)
	return &d
}
func (o *objResolver) Message() string { return "Update " + o.r.Name }

// entryResolver resolves TreeEntry.
type entryResolver struct {
	r *repoSnap
	e treeEntry
}

func (e *entryResolver) Name() string              { return e.e.name }
func (e *entryResolver) Path() *string             { p := e.e.path; return &p }
func (e *entryResolver) IsGenerated() bool         { return false }
func (e *entryResolver) Repository() *repoResolver { return &repoResolver{e.r} }
func (e *entryResolver) Type() string {
	if e.e.isTree {
		return "tree"
	}
	return "blob"
}
func (e *entryResolver) Mode() int32 {
	if e.e.isTree {
		return 0o040000
	}
	return 0o100644
}
func (e *entryResolver) Size() int32 {
	if e.e.isTree {
		return 0
	}
	return int32(len(e.r.Files[e.e.path]))
}
func (e *entryResolver) Extension() *string {
	if e.e.isTree {
		return nil
	}
	x := path.Ext(e.e.name)
	return &x
}
func (e *entryResolver) Object() *objResolver {
	if e.e.isTree {
		return &objResolver{r: e.r, kind: kindTree, path: e.e.path}
	}
	return &objResolver{r: e.r, kind: kindBlob, path: e.e.path}
}
func (e *entryResolver) Oid() gitObjectID { return e.Object().Oid() }
