package githubtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// gqlResponse is a decoded GraphQL answer.
type gqlResponse struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Type       string         `json:"type"`
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Locations  []any          `json:"locations"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// post sends a GraphQL query with a token and decodes the answer.
func post(t *testing.T, s *Server, query string, vars map[string]any) (gqlResponse, *http.Response) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.GraphQLURL(), bytes.NewReader(body))
	req.Header.Set("Authorization", "bearer test-token")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out gqlResponse
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
	}
	return out, resp
}

// get sends an authenticated REST GET.
func get(t *testing.T, s *Server, pathAndQuery string) (map[string]any, *http.Response) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.RESTURL()+pathAndQuery, nil)
	req.Header.Set("Authorization", "token test-token")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out, resp
}

func corpus(t *testing.T) *Server {
	t.Helper()
	dir := RealCorpusDir()
	if dir == "" {
		t.Fatal("the real corpus must be at ../shared/corpus/real beside the checkout")
	}
	return NewFromCorpus(t, dir)
}
