package githubtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"time"
)

// Request is one recorded request, as the server saw it.
type Request struct {
	Time     time.Time
	Method   string
	Path     string // URL path, e.g. "/graphql" or "/search/code"
	RawQuery string // URL query string (REST)
	// GraphQL only: the query text and variables as sent.
	Query     string
	Variables map[string]any
	// Status is the HTTP status answered; Cost the GraphQL points charged
	// (0 for REST, for failed requests and for dry runs).
	Status int
	Cost   int
}

type entryKey struct{}

// beginRequest records r's shape; the entry is completed by endRequest.
func (s *Server) beginRequest(r *http.Request) (*Request, *http.Request) {
	e := &Request{Time: s.opts.Now(), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery}
	if r.Method == http.MethodPost && r.Body != nil {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		r.Body = io.NopCloser(bytes.NewReader(body))
		var gq graphQLRequest
		if json.Unmarshal(body, &gq) == nil {
			e.Query, e.Variables = gq.Query, gq.Variables
		}
	}
	return e, r.WithContext(context.WithValue(r.Context(), entryKey{}, e))
}

func (s *Server) endRequest(e *Request, status int) {
	e.Status = status
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.log = append(s.log, *e)
}

// entryOf returns the log entry of the request being served.
func entryOf(ctx context.Context) *Request {
	e, _ := ctx.Value(entryKey{}).(*Request)
	if e == nil {
		e = &Request{}
	}
	return e
}

// Requests returns a copy of every request recorded so far, oldest first.
func (s *Server) Requests() []Request {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	return slices.Clone(s.log)
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	s.log = nil
}

// Stats summarises the request log.
type Stats struct {
	GraphQLCalls    int // POSTs to the GraphQL endpoint, whatever their answer
	CodeSearchCalls int // GETs of /search/code, whatever their answer
	Points          int // GraphQL points charged
	Failures        int // answers with status >= 400
}

// Stats counts calls and points over the request log.
func (s *Server) Stats() Stats {
	var st Stats
	for _, r := range s.Requests() {
		switch r.Path {
		case "/graphql", "/api/graphql":
			st.GraphQLCalls++
		case "/search/code":
			st.CodeSearchCalls++
		}
		st.Points += r.Cost
		if r.Status >= 400 {
			st.Failures++
		}
	}
	return st
}
