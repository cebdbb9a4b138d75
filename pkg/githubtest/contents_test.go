package githubtest

import (
	"io"
	"net/http"
	"testing"
)

func TestContentsRaw(t *testing.T) {
	s := New(t, Options{Token: "t"})
	big := make([]byte, 700<<10)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	s.AddRepo(Repo{Owner: "o", Name: "r", Files: map[string][]byte{"docs/index.md": big}})
	get := func(path, accept string) (int, []byte) {
		req, _ := http.NewRequest(http.MethodGet, s.RESTURL()+path, nil)
		req.Header.Set("Authorization", "bearer t")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	if code, body := get("/repos/o/r/contents/docs/index.md", "application/vnd.github.raw"); code != 200 || len(body) != len(big) {
		t.Fatalf("raw contents: %d, %d bytes (want all %d, more than GraphQL's blob text)", code, len(body), len(big))
	}
	for _, tt := range []struct {
		path, accept string
		want         int
	}{
		{"/repos/o/r/contents/missing.md", "application/vnd.github.raw", 404},
		{"/repos/o/gone/contents/docs/index.md", "application/vnd.github.raw", 404},
		{"/repos/o/r/contents/docs/index.md", "application/vnd.github+json", 415},
	} {
		if code, _ := get(tt.path, tt.accept); code != tt.want {
			t.Errorf("GET %s (%s) = %d, want %d", tt.path, tt.accept, code, tt.want)
		}
	}
}
