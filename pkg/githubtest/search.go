package githubtest

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxSearchResults is how many results any one search lets a client page
// through (GitHub: 1000); the reported count may be larger.
const MaxSearchResults = 1000

var repoQualifiers = map[string]bool{
	"in": true, "topic": true, "created": true, "pushed": true, "stars": true, "forks": true,
	"fork": true, "archived": true, "user": true, "org": true, "repo": true, "language": true,
	"license": true, "is": true, "sort": true, "topics": true, "size": true, "mirror": true,
}

// SearchRepositories runs a repository search the way search(type:
// REPOSITORY) does and returns every match (uncapped), in result order.
//
// Supported syntax (space-separated, all terms ANDed):
//   - free words, matched case-insensitively as whole words (split on
//     non-alphanumerics, so "okf" matches "okf-skills" and "slo.okf") and
//     "quoted phrases" (substring), against the fields of in: — default
//     name,description,topics (GitHub's documented default; README only
//     with in:readme); in: takes a comma list of name, description, topics,
//     readme;
//   - topic:x (exact, case-insensitive), topics:N (count range);
//   - created: / pushed: with YYYY-MM-DD or RFC 3339 bounds: A..B, >=A, >A,
//     <A, <=A, A..*, *..B, or a single day;
//   - stars: / forks: / size: integer ranges, same operators (size ignored);
//   - fork:true|false|only (forks are excluded by default, as on GitHub),
//     archived:true|false, is:public|private|archived|fork;
//   - user: / org: owner (case-insensitive), repo:owner/name,
//     language:x (primary language), license:spdx-or-key;
//   - sort:stars|forks|updated|created[-asc|-desc] honoured; default "best
//     match" is stars desc, then full name asc (deterministic).
//
// Unknown key:value terms are matched as text, like GitHub.
func (s *Server) SearchRepositories(q string) ([]*Repo, error) {
	snaps, err := s.searchRepos(q)
	out := make([]*Repo, len(snaps))
	for i, sn := range snaps {
		out[i] = &sn.Repo
	}
	return out, err
}

func (s *Server) searchRepos(q string) ([]*repoSnap, error) {
	terms := parseTerms(q, repoQualifiers)
	fields := []string{"name", "description", "topics"}
	forkMode, sortBy := "false", ""
	var filters []func(*repoSnap) bool
	var words []term
	for _, t := range terms {
		v := strings.ToLower(t.value)
		switch t.key {
		case "":
			words = append(words, t)
		case "in":
			fields = strings.Split(v, ",")
		case "topic":
			filters = append(filters, func(r *repoSnap) bool {
				return slices.ContainsFunc(r.Topics, func(x string) bool { return strings.EqualFold(x, v) })
			})
		case "topics", "created", "pushed", "stars", "forks":
			f, err := rangeFilter(t, v)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		case "fork":
			forkMode = v
		case "archived":
			want := v == "true"
			filters = append(filters, func(r *repoSnap) bool { return r.Archived == want })
		case "is":
			switch v {
			case "private":
				filters = append(filters, func(*repoSnap) bool { return false })
			case "archived":
				filters = append(filters, func(r *repoSnap) bool { return r.Archived })
			case "fork":
				forkMode = "only"
			}
		case "user", "org":
			filters = append(filters, func(r *repoSnap) bool { return strings.EqualFold(r.Owner, v) })
		case "repo":
			filters = append(filters, func(r *repoSnap) bool { return strings.EqualFold(r.FullName(), v) })
		case "language":
			filters = append(filters, func(r *repoSnap) bool { return strings.EqualFold(r.Language, v) })
		case "license":
			filters = append(filters, func(r *repoSnap) bool {
				return r.License != "" && (strings.EqualFold(r.License, v) || (&licenseResolver{r.License}).Key() == v)
			})
		case "sort":
			sortBy = v
		}
	}
	switch forkMode {
	case "true":
	case "only":
		filters = append(filters, func(r *repoSnap) bool { return r.Fork })
	default:
		filters = append(filters, func(r *repoSnap) bool { return !r.Fork })
	}
	var out []*repoSnap
	for _, r := range s.snapshots() {
		if !slices.ContainsFunc(filters, func(f func(*repoSnap) bool) bool { return !f(r) }) &&
			matchWords(r, words, fields) {
			out = append(out, r)
		}
	}
	sortRepos(out, sortBy)
	return out, nil
}

// rangeFilter is the filter of a range qualifier (topics, created, pushed,
// stars, forks) of value v, lowercased.
func rangeFilter(t term, v string) (func(*repoSnap) bool, error) {
	if t.key == "created" || t.key == "pushed" {
		f, ok := timeRange(t.value)
		if !ok {
			return nil, badQualifier(t)
		}
		if t.key == "created" {
			return func(r *repoSnap) bool { return f(r.CreatedAt) }, nil
		}
		return func(r *repoSnap) bool { return f(r.PushedAt) }, nil
	}
	f, ok := intRange(v)
	if !ok {
		return nil, badQualifier(t)
	}
	switch t.key {
	case "topics":
		return func(r *repoSnap) bool { return f(len(r.Topics)) }, nil
	case "stars":
		return func(r *repoSnap) bool { return f(r.Stars) }, nil
	}
	return func(r *repoSnap) bool { return f(r.Forks) }, nil
}

func badQualifier(t term) error {
	return &ghError{Type: "INVALID_QUERY", Message: fmt.Sprintf("Invalid search query: %s:%s", t.key, t.value)}
}

// matchWords: every word must occur in at least one of the fields.
func matchWords(r *repoSnap, words []term, fields []string) bool {
	if len(words) == 0 {
		return true
	}
	var texts []string
	for _, f := range fields {
		switch f {
		case "name":
			texts = append(texts, strings.ToLower(r.Name))
		case "description":
			texts = append(texts, strings.ToLower(r.Description))
		case "topics":
			texts = append(texts, strings.ToLower(strings.Join(r.Topics, " ")))
		case "readme":
			texts = append(texts, strings.ToLower(string(r.readme())))
		}
	}
	for _, w := range words {
		v := strings.ToLower(w.value)
		if !slices.ContainsFunc(texts, func(t string) bool {
			if w.quoted {
				return strings.Contains(t, v)
			}
			return containsWord(t, v, alnum)
		}) {
			return false
		}
	}
	return true
}

func sortRepos(rs []*repoSnap, by string) {
	key, dir, _ := strings.Cut(by, "-")
	desc := dir != "asc"
	slices.SortStableFunc(rs, func(a, b *repoSnap) int {
		var c int
		switch key {
		case "forks":
			c = cmp.Compare(a.Forks, b.Forks)
		case "updated":
			c = a.PushedAt.Compare(b.PushedAt)
		case "created":
			c = a.CreatedAt.Compare(b.CreatedAt)
		default:
			c = cmp.Compare(a.Stars, b.Stars)
		}
		if desc {
			c = -c
		}
		if c == 0 {
			c = compareFold(a.FullName(), b.FullName())
		}
		return c
	})
}

// Search resolves Query.search. Only REPOSITORY returns items; the other
// types answer an empty connection.
func (q *query) Search(args struct {
	After, Before *string
	First, Last   *int32
	Query         string
	Type          string
}) (*searchConn, error) {
	if err := checkPaging("search", pageArgs{args.After, args.Before, args.First, args.Last}); err != nil {
		return nil, err
	}
	if args.Type != "REPOSITORY" {
		return &searchConn{}, nil
	}
	all, err := q.s.searchRepos(args.Query)
	if err != nil {
		return nil, err
	}
	reach := all[:min(len(all), MaxSearchResults)]
	lo, hi := 0, len(reach) // window [lo, hi)
	if args.After != nil {
		lo = max(lo, min(decodeCursor(*args.After), len(reach)))
	}
	if args.Before != nil {
		if b := decodeCursor(*args.Before) - 1; b >= 0 {
			hi = min(hi, b)
		}
	}
	lo = min(lo, hi)
	if args.First != nil {
		hi = min(hi, lo+int(*args.First))
	} else if args.Last != nil {
		lo = max(lo, hi-int(*args.Last))
	}
	return &searchConn{items: reach[lo:hi], offset: lo, total: len(all), reachable: len(reach)}, nil
}

func encodeCursor(pos int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:" + strconv.Itoa(pos)))
}

// decodeCursor returns the 1-based position a cursor names (0 if invalid).
func decodeCursor(c string) int {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(string(b), "cursor:"))
	return max(n, 0)
}
