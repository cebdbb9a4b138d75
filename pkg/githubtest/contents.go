package githubtest

import (
	"net/http"
	"strings"
)

// serveContents answers GET /repos/{owner}/{repo}/contents/{path...} with the
// raw media type (Accept: application/vnd.github.raw), as GitHub's REST
// contents API does: the file's bytes, 404 for a missing repository or file.
// The JSON (base64) form is not served: a request without the raw media type
// is answered 415, so a client that forgets it fails loudly here too.
func (s *Server) serveContents(w http.ResponseWriter, r *http.Request) {
	snap := s.lookup(r.PathValue("owner"), r.PathValue("repo"))
	if snap == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content", "status": "404"})
		return
	}
	if ref := r.URL.Query().Get("ref"); ref != "" && ref != "HEAD" && ref != snap.DefaultBranch {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "No commit found for the ref " + ref, "status": "404"})
		return
	}
	data, ok := snap.Files[strings.TrimPrefix(r.PathValue("path"), "/")]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content", "status": "404"})
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "application/vnd.github.raw") {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{"message": "this test server serves contents only with Accept: application/vnd.github.raw", "status": "415"})
		return
	}
	w.Header().Set("Content-Type", "application/vnd.github.raw; charset=utf-8")
	_, _ = w.Write(data)
}
