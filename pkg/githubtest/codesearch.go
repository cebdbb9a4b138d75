package githubtest

import (
	"fmt"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
)

var codeQualifiers = map[string]bool{
	"filename": true, "path": true, "extension": true, "size": true, "repo": true,
	"user": true, "org": true, "in": true, "language": true, "fork": true,
}

// CodeHit is one file found by code search.
type CodeHit struct {
	Repo *Repo
	Path string
}

// CodeSearch runs a REST code search and returns every match (uncapped),
// ordered by repository full name then path.
//
// Supported syntax (space-separated, all terms ANDed):
//   - free words matched case-insensitively as whole tokens against file
//     content ('_' is part of a token, so okf_version matches
//     "okf_version: 0.1" but not "okf_versions"); "quoted phrases" match
//     as substrings; in:path matches words against the path instead, and
//     in:file,path against either;
//   - filename:index.md (base name, case-insensitive), path:docs/okf
//     (directory prefix; path:/ = repository root), extension:md;
//   - size:N, size:>N, size:>=N, size:<N, size:A..B (bytes);
//   - repo:owner/name, user:/org:owner, language: (the repository's),
//     fork:true|only (forks are excluded by default).
//
// Files over 384 KB and binary files are not indexed, as on GitHub.
func (s *Server) CodeSearch(q string) ([]CodeHit, error) {
	terms := parseTerms(q, codeQualifiers)
	var fileF []func(r *repoSnap, p string, b []byte) bool
	var repoF []func(r *repoSnap) bool
	var words []term
	in, forkMode := "file", "false"
	for _, t := range terms {
		v := strings.ToLower(t.value)
		switch t.key {
		case "":
			words = append(words, t)
		case "in":
			in = v
		case "filename":
			fileF = append(fileF, func(_ *repoSnap, p string, _ []byte) bool { return strings.EqualFold(path.Base(p), v) })
		case "extension":
			v = strings.TrimPrefix(v, ".")
			fileF = append(fileF, func(_ *repoSnap, p string, _ []byte) bool {
				return strings.EqualFold(strings.TrimPrefix(path.Ext(p), "."), v)
			})
		case "path":
			dir := strings.Trim(v, "/")
			fileF = append(fileF, func(_ *repoSnap, p string, _ []byte) bool {
				d := strings.ToLower(path.Dir(p))
				if d == "." {
					d = ""
				}
				if dir == "" {
					return d == ""
				}
				return d == dir || strings.HasPrefix(d, dir+"/")
			})
		case "size":
			f, ok := intRange(v)
			if !ok {
				return nil, fmt.Errorf("invalid size qualifier %q", t.value)
			}
			fileF = append(fileF, func(_ *repoSnap, _ string, b []byte) bool { return f(len(b)) })
		case "repo":
			repoF = append(repoF, func(r *repoSnap) bool { return strings.EqualFold(r.FullName(), v) })
		case "user", "org":
			repoF = append(repoF, func(r *repoSnap) bool { return strings.EqualFold(r.Owner, v) })
		case "language":
			repoF = append(repoF, func(r *repoSnap) bool { return strings.EqualFold(r.Language, v) })
		case "fork":
			forkMode = v
		}
	}
	if len(words) == 0 && len(fileF) == 0 && len(repoF) == 0 {
		return nil, fmt.Errorf("empty query")
	}
	var hits []CodeHit
	for _, r := range s.snapshots() {
		if (forkMode == "only" && !r.Fork) || (forkMode != "true" && forkMode != "only" && r.Fork) ||
			slices.ContainsFunc(repoF, func(f func(*repoSnap) bool) bool { return !f(r) }) {
			continue
		}
		for _, p := range r.paths {
			b := r.Files[p]
			if len(b) > 384<<10 || isBinary(b) ||
				slices.ContainsFunc(fileF, func(f func(*repoSnap, string, []byte) bool) bool { return !f(r, p, b) }) ||
				!codeWordsMatch(words, in, p, b) {
				continue
			}
			hits = append(hits, CodeHit{Repo: &r.Repo, Path: p})
		}
	}
	return hits, nil
}

func codeWordsMatch(words []term, in, p string, b []byte) bool {
	if len(words) == 0 {
		return true
	}
	var texts []string
	if strings.Contains(in, "file") {
		texts = append(texts, strings.ToLower(string(b)))
	}
	if strings.Contains(in, "path") {
		texts = append(texts, strings.ToLower(p))
	}
	for _, w := range words {
		v := strings.ToLower(w.value)
		if !slices.ContainsFunc(texts, func(t string) bool {
			if w.quoted {
				return strings.Contains(t, v)
			}
			return containsWord(t, v, codeWord)
		}) {
			return false
		}
	}
	return true
}

// serveCodeSearch answers GET /search/code in the REST v3 shape.
func (s *Server) serveCodeSearch(w http.ResponseWriter, r *http.Request) {
	b, ok := s.takeCodeSearch()
	setLimitHeaders(w, b, "code_search")
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(b.resetAt.Sub(s.opts.Now()).Seconds()+0.999))))
		writeJSON(w, http.StatusForbidden, map[string]string{
			"message":           "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.",
			"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
			"status":            "403",
		})
		return
	}
	v := r.URL.Query()
	q := v.Get("q")
	perPage, page := intParam(v.Get("per_page"), 30), intParam(v.Get("page"), 1)
	perPage = min(max(perPage, 1), 100)
	page = max(page, 1)
	if strings.TrimSpace(q) == "" {
		writeValidationFailed(w, "q", "missing")
		return
	}
	if (page-1)*perPage >= MaxSearchResults {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{
			"message":           "Cannot access beyond the first 1000 results, or the 1000th result.",
			"documentation_url": "https://docs.github.com/v3/search/",
			"status":            "422",
		})
		return
	}
	hits, err := s.CodeSearch(q)
	if err != nil {
		writeValidationFailed(w, "q", "invalid")
		return
	}
	lo := min((page-1)*perPage, len(hits))
	hi := min(lo+perPage, len(hits), MaxSearchResults)
	items := make([]map[string]any, 0, hi-lo)
	for _, h := range hits[lo:hi] {
		items = append(items, s.codeItem(h))
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"total_count": len(hits), "incomplete_results": false, "items": items})
}

func (s *Server) codeItem(h CodeHit) map[string]any {
	full := h.Repo.FullName()
	snap := s.lookup(h.Repo.Owner, h.Repo.Name)
	var id int64
	if snap != nil {
		id = snap.dbID
	}
	sha := gitBlobOID(h.Repo.Files[h.Path])
	ref := gitBlobOID([]byte(full)) // stands in for the commit id in html_url
	api := s.RESTURL() + "/repos/" + full
	return map[string]any{
		"name":     path.Base(h.Path),
		"path":     h.Path,
		"sha":      sha,
		"url":      api + "/contents/" + h.Path + "?ref=" + ref,
		"git_url":  api + "/git/blobs/" + sha,
		"html_url": "https://github.com/" + full + "/blob/" + ref + "/" + h.Path,
		"score":    1.0,
		"repository": map[string]any{
			"id":        id,
			"node_id":   fmt.Sprintf("R_kgDO%08X", id),
			"name":      h.Repo.Name,
			"full_name": full,
			"owner":     map[string]any{"login": h.Repo.Owner, "type": "User", "html_url": "https://github.com/" + h.Repo.Owner},
			"private":   false,
			"html_url":  "https://github.com/" + full,
			"fork":      h.Repo.Fork,
			"url":       api,
		},
	}
}

func intParam(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}

func writeValidationFailed(w http.ResponseWriter, field, code string) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
		"message":           "Validation Failed",
		"errors":            []map[string]string{{"resource": "Search", "field": field, "code": code}},
		"documentation_url": "https://docs.github.com/v3/search",
		"status":            "422",
	})
}
