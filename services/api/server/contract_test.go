package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/okfindex/okf-index/services/api/server/openapi"
)

// contractDoc is the OpenAPI document a variant publishes, loaded and
// validated by kin-openapi, with a router over its paths.
type contractDoc struct {
	doc    *openapi3.T
	router routers.Router
}

var (
	contractOnce [2]sync.Once
	contractDocs [2]*contractDoc
	contractErrs [2]error
)

// The documents that are not JSON are read as text; the RFC 9727 linkset
// is JSON.
func init() {
	text := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	for _, ct := range []string{"text/html", "text/markdown", "text/plain", "image/webp", "application/secevent+jwt",
		"text/css", "text/javascript", "image/svg+xml", "application/opensearchdescription+xml", "application/atom+xml"} {
		openapi3filter.RegisterBodyDecoder(ct, text)
	}
	openapi3filter.RegisterBodyDecoder("application/linkset+json", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		var v any
		err := json.NewDecoder(body).Decode(&v)
		return v, err
	})
}

// loadContract loads the document the server publishes for a variant (the
// same function GET /openapi.json answers from), validates it, and builds a
// router that matches any host (the test server is not at publicBase).
func loadContract(t testing.TB, full bool) *contractDoc {
	t.Helper()
	i := 0
	if full {
		i = 1
	}
	contractOnce[i].Do(func() {
		contractDocs[i], contractErrs[i] = func() (*contractDoc, error) {
			data, err := openapi.Published(publicBase, full)
			if err != nil {
				return nil, err
			}
			loader := openapi3.NewLoader()
			doc, err := loader.LoadFromData(data)
			if err != nil {
				return nil, fmt.Errorf("load: %w", err)
			}
			if err := doc.Validate(loader.Context); err != nil {
				return nil, fmt.Errorf("validate: %w", err)
			}
			if len(doc.Servers) != 1 || doc.Servers[0].URL != publicBase {
				return nil, fmt.Errorf("servers = %v, want the public base URL", doc.Servers)
			}
			doc.Servers = nil
			router, err := gorillamux.NewRouter(doc)
			if err != nil {
				return nil, err
			}
			return &contractDoc{doc, router}, nil
		}()
	})
	if contractErrs[i] != nil {
		t.Fatalf("openapi document (full=%v): %v", full, contractErrs[i])
	}
	return contractDocs[i]
}

// contractTransport checks every request a test makes and every answer it
// gets against the published OpenAPI document of the server's variant; a
// mismatch fails the test. The rules:
//
//   - Every answer carries Access-Control-Allow-Origin: *, except those of
//     an operation marked x-cors: false (a session route), which carry no
//     Access-Control-* header at all.
//   - A request to a documented operation: the answer's status must be
//     documented for it and its body must match the documented schema. A
//     request the document calls invalid must be refused (400 or 404).
//   - A request to an undocumented path or method must answer 404 or 405
//     with an Error body (HEAD: no body).
//   - OPTIONS to a documented path is a 204 CORS preflight.
//   - An operation marked x-lenient-body answers any body as documented, so
//     its request is not held to the body schema.
type contractTransport struct {
	t    testing.TB
	doc  *contractDoc
	next http.RoundTripper
}

func newContractTransport(t testing.TB, full bool, next http.RoundTripper) *contractTransport {
	return &contractTransport{t: t, doc: loadContract(t, full), next: next}
}

// RoundTrip sends the request and checks the exchange.
func (ct *contractTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := ct.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	checked := body
	if resp.Header.Get("Content-Encoding") == "gzip" && len(body) > 0 { // asked for by the test: check what it encodes
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			checked, err = io.ReadAll(zr)
		}
		if err != nil {
			ct.t.Errorf("contract: %s %s: a gzip body that does not inflate: %v", req.Method, req.URL.RequestURI(), err)
		}
	}
	if err := ct.check(req, resp, checked); err != nil {
		ct.t.Errorf("contract: %s %s -> %d: %v\nbody: %.600s", req.Method, req.URL.RequestURI(), resp.StatusCode, err, body)
	}
	return resp, nil
}

func (ct *contractTransport) check(req *http.Request, resp *http.Response, body []byte) error {
	ctx := context.Background()
	vreq := req.Clone(ctx)
	if req.GetBody != nil { // the transport consumed the body: validate a fresh copy
		body, err := req.GetBody()
		if err != nil {
			return err
		}
		vreq.Body = body
	}
	if req.Method == http.MethodHead || req.Method == http.MethodOptions {
		vreq.Method = http.MethodGet // both are answered for every documented GET
	}
	route, pathParams, findErr := ct.doc.router.FindRoute(vreq)
	if req.Method == http.MethodOptions && errors.Is(findErr, routers.ErrMethodNotAllowed) {
		// The preflight of a POST-only path (POST /api/ping).
		vreq.Method = http.MethodPost
		route, pathParams, findErr = ct.doc.router.FindRoute(vreq)
	}

	if err := ct.checkCORS(req, route, findErr, resp.Header); err != nil {
		return err
	}
	if req.Method == http.MethodOptions && findErr == nil {
		if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
			return errors.New("a preflight of a documented path must answer 204 with no body")
		}
		return nil
	}
	if findErr != nil {
		want := http.StatusNotFound
		if errors.Is(findErr, routers.ErrMethodNotAllowed) {
			want = http.StatusMethodNotAllowed
		}
		if resp.StatusCode != want {
			return fmt.Errorf("undocumented (%v): status must be %d", findErr, want)
		}
		if want == http.StatusMethodNotAllowed && resp.Header.Get("Allow") == "" {
			return errors.New("405 without an Allow header")
		}
		return ct.checkErrorBody(req, resp, body)
	}

	reqInput := &openapi3filter.RequestValidationInput{
		Request:    vreq,
		PathParams: pathParams,
		Route:      route,
		// Credentials are the server's to judge (a session cookie, an API
		// key), not the document's.
		Options: &openapi3filter.Options{SkipSettingDefaults: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	// kin-openapi reads integers as int64, though JSON Schema integers are
	// unbounded: a limit or offset too long for int64 is valid by the
	// document (the server clamps it), not refused.
	if _, lenient := route.Operation.Extensions["x-lenient-body"]; lenient {
		reqInput.Options.ExcludeRequestBody = true
	}
	if reqErr := openapi3filter.ValidateRequest(ctx, reqInput); reqErr != nil && !errors.Is(reqErr, strconv.ErrRange) {
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			return fmt.Errorf("the document refuses this request (%v) but the server answered it", reqErr)
		}
	}
	if req.Method == http.MethodHead {
		if len(body) != 0 {
			return errors.New("HEAD answered with a body")
		}
		if route.Operation.Responses.Status(resp.StatusCode) == nil {
			return fmt.Errorf("status %d is not documented", resp.StatusCode)
		}
		return nil
	}
	return openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: reqInput,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	})
}

// checkCORS checks the CORS headers of an answer: none on an operation
// marked x-cors: false (or on any method of its path), * everywhere else.
func (ct *contractTransport) checkCORS(req *http.Request, route *routers.Route, findErr error, h http.Header) error {
	noCORS := false
	if findErr == nil {
		noCORS = route.Operation.Extensions[openapi.CORSKey] == false
	} else if item := ct.doc.doc.Paths.Find(req.URL.Path); item != nil {
		for _, op := range item.Operations() {
			noCORS = noCORS || op.Extensions[openapi.CORSKey] == false
		}
	}
	if noCORS {
		for k := range h {
			if strings.HasPrefix(k, "Access-Control-") {
				return fmt.Errorf("%s on a session route, which has no CORS", k)
			}
		}
		return nil
	}
	if got := h.Get("Access-Control-Allow-Origin"); got != "*" {
		return fmt.Errorf("Access-Control-Allow-Origin = %q, want *", got)
	}
	return nil
}

// checkErrorBody checks an undocumented route's answer against the Error schema.
func (ct *contractTransport) checkErrorBody(req *http.Request, resp *http.Response, body []byte) error {
	if req.Method == http.MethodHead {
		if len(body) != 0 {
			return errors.New("HEAD answered with a body")
		}
		return nil
	}
	if wantsPage(req) {
		// A browser's request outside the API, or a page's path: the
		// failure is an HTML page (TestWebErrorPages checks what it says).
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			return fmt.Errorf("Content-Type = %q, want an HTML page", ct)
		}
		return nil
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("Content-Type = %q, want application/json", ct)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	schema := ct.doc.doc.Components.Schemas["Error"].Value
	return schema.VisitJSON(v, openapi3.EnableJSONSchema2020())
}
