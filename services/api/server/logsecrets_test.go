package server

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
)

// TestNoRouteLogsASecret sends every route of the full variant (path
// parameters filled in) the secrets a client may carry: a credit token, an
// API key and a session JWT, in every query parameter that names a
// credential, in the credential headers and in a JSON body; then no line of
// the server's log holds any of them. The requests are sent by a plain
// client: they put credentials where routes do not take them, and what a
// route answers to that is tested beside each route.
func TestNoRouteLogsASecret(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	hex8 := func() string {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b)
	}
	credit, key := "cred_"+hex8(), "hsk_"+hex8()
	jwt := "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiI" + hex8() + "In0.c2lnbmF0dXJl" + hex8()
	secrets := []string{credit, key, jwt}

	query := url.Values{}
	for _, name := range []string{"token", "api_key", "key", "credito", "access_token", "session"} {
		query.Set(name, credit)
	}
	query.Add("api_key", key)
	query.Set("q", key) // a secret pasted into a search
	param := regexp.MustCompile(`\{[^}]+\}`)
	sent := 0
	for _, r := range a.server.routeTable() {
		path := param.ReplaceAllString(r.Path, "x")
		for _, h := range []http.Header{
			{"Authorization": {"Bearer " + key}, "X-Credito": {credit}},
			{"Authorization": {"Bearer " + jwt}, "X-Api-Key": {key}, "Cookie": {"session=" + jwt}},
			{"Authorization": {"Basic " + credit}, "X-Payment": {credit}},
		} {
			var body *strings.Reader
			if r.Method == http.MethodPost || r.Method == http.MethodPut {
				body = strings.NewReader(`{"token":"` + credit + `","key":"` + key + `","session":"` + jwt + `"}`)
			}
			req, err := http.NewRequestWithContext(t.Context(), r.Method, a.url+path+"?"+query.Encode(), nil)
			if body != nil {
				req, err = http.NewRequestWithContext(t.Context(), r.Method, a.url+path+"?"+query.Encode(), body)
				req.Header.Set("Content-Type", "application/json")
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, vs := range h {
				req.Header[k] = vs
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", r.Method, path, err)
			}
			resp.Body.Close()
			sent++
		}
	}
	logs := a.logs.String()
	if !strings.Contains(logs, "/api/bundles?") || !strings.Contains(logs, "[REDACTED]") {
		t.Fatalf("the log holds no request lines; the scan would prove nothing:\n%.500s", logs)
	}
	for _, s := range secrets {
		if i := strings.Index(logs, s); i >= 0 {
			start := max(0, strings.LastIndex(logs[:i], "\n")+1)
			end := i + strings.Index(logs[i:]+"\n", "\n")
			t.Errorf("a log line holds a secret (%.9s…): %s", s, logs[start:end])
		}
	}
	t.Logf("%d requests over %d routes, %d log bytes scanned", sent, len(a.server.routeTable()), len(logs))
}
