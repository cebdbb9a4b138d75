package protoerr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

// serve runs a real http.Server on a wrapped loopback listener: with
// timeouts, configured like okf-api's, or (bare) with none, as
// httptest's.
func serve(t *testing.T, h http.Handler, bare ...bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, MaxHeaderBytes: 4 << 10}
	if len(bare) > 0 && bare[0] {
		hs = &http.Server{Handler: h, MaxHeaderBytes: 4 << 10}
	}
	go hs.Serve(Listener{ln})
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// exchange writes raw on one connection and reads every answer until the
// server closes it.
func exchange(t *testing.T, addr, raw string) []*http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	var out []*http.Response
	r := bufio.NewReader(c)
	for {
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return out
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("answer %d: body: %v", len(out)+1, err)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		out = append(out, resp)
	}
}

func TestGoRefusalsAnswerJSON(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	for _, bare := range []bool{false, true} {
		t.Run(map[bool]string{false: "timeouts", true: "no timeouts"}[bare], func(t *testing.T) { refusals(t, serve(t, ok, bare)) })
	}
}

func refusals(t *testing.T, addr string) {
	for _, tc := range []struct {
		name, raw  string
		status     int
		error      string
		messageHas string
	}{
		{"bad percent escape in the path", "GET /api/b/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid_request", "Percent-encode"},
		{"truncated escape", "GET /a%2 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid_request", "malformed"},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400, "invalid_request", "missing required Host header"},
		{"header line without a colon", "GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "invalid_request", "header"},
		{"invalid header name", "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400, "invalid_request", "header"},
		{"headers past MaxHeaderBytes", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 16<<10) + "\r\n\r\n", 431, "headers_too_large", "1 MiB"},
		{"unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported_transfer_coding", "Transfer-Encoding"},
		{"HTTP/2.0 request line", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "unsupported_http_version", "HTTP/1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := exchange(t, addr, tc.raw)
			if len(answers) != 1 {
				t.Fatalf("%d answers, want 1", len(answers))
			}
			checkRefusal(t, answers[0], tc.status, tc.error, tc.messageHas)
		})
	}
}

func checkRefusal(t *testing.T, resp *http.Response, status int, name, messageHas string) {
	t.Helper()
	var body wire.ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("%d %s: body is not a JSON error: %v", resp.StatusCode, resp.Header.Get("Content-Type"), err)
	}
	if resp.StatusCode != status || body.Error != name || !strings.Contains(body.Message, messageHas) {
		t.Fatalf("got %d %+v, want %d %s with %q in its message", resp.StatusCode, body, status, name, messageHas)
	}
	if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Content-Type-Options") != "nosniff" || !resp.Close {
		t.Fatalf("headers %v, close %v", resp.Header, resp.Close)
	}
}

// A bad request after good ones on a kept-alive connection is refused as
// JSON too, and the good ones are answered untouched.
func TestRefusalAfterKeptAliveRequests(t *testing.T) {
	t.Parallel()
	for _, bare := range []bool{false, true} {
		addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok "+r.URL.Path) }), bare)
		good := "GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
		answers := exchange(t, addr, good+good+"GET /%%% HTTP/1.1\r\nHost: x\r\n\r\n")
		if len(answers) != 3 {
			t.Fatalf("bare %v: %d answers, want 3", bare, len(answers))
		}
		for _, a := range answers[:2] {
			if b, _ := io.ReadAll(a.Body); a.StatusCode != 200 || string(b) != "ok /one" {
				t.Fatalf("bare %v: good request: %d %q", bare, a.StatusCode, b)
			}
		}
		checkRefusal(t, answers[2], 400, "invalid_request", "Percent-encode")
	}
}

// A response whose bytes are, in whole or at any offset, Go's refusal text
// (a bundle's author chooses a card's text) reaches the client unchanged
// and the connection stays framed: each is followed by a good request on
// the same connection.
func TestResponsesThatLookLikeRefusalsPassUnchanged(t *testing.T) {
	t.Parallel()
	refusal := "HTTP/1.1 400 Bad Request" + goHeaders + "400 Bad Request"
	if _, ok := Rewrite([]byte(refusal)); !ok {
		t.Fatal("the refusal itself is not recognised")
	}
	var bodies []string
	for pad := 0; pad <= 4200; pad += 7 {
		bodies = append(bodies, strings.Repeat("x", pad)+refusal)
	}
	for _, n := range []int{2048, 4096, 8192} {
		bodies = append(bodies, strings.Repeat("y", n-len(refusal))+refusal, strings.Repeat("y", n)+refusal)
	}
	for _, bare := range []bool{false, true} {
		t.Run(map[bool]string{false: "timeouts", true: "no timeouts"}[bare], func(t *testing.T) { lookalikes(t, bodies, bare) })
	}
}

func lookalikes(t *testing.T, bodies []string, bare bool) {
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			io.WriteString(w, "next")
			return
		}
		var i int
		fmt.Sscanf(r.URL.Query().Get("i"), "%d", &i)
		if r.URL.Query().Get("flush") == "1" {
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, bodies[i])
	}), bare)
	var raw strings.Builder
	for i := range bodies {
		for _, flush := range []string{"0", "1"} {
			fmt.Fprintf(&raw, "GET /b?i=%d&flush=%s HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n", i, flush)
		}
	}
	raw.WriteString("GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	answers := exchange(t, addr, raw.String())
	if want := 4*len(bodies) + 1; len(answers) != want {
		t.Fatalf("%d answers, want %d", len(answers), want)
	}
	for k, a := range answers[:4*len(bodies)] {
		b, _ := io.ReadAll(a.Body)
		want := "next"
		if k%2 == 0 {
			want = bodies[k/4]
		}
		if a.StatusCode != 200 || string(b) != want {
			t.Fatalf("answer %d: %d, %d bytes, want %d", k, a.StatusCode, len(b), len(want))
		}
	}
}

func TestRewriteTakesOnlyGoRefusals(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		"",
		"HTTP/1.1 400 Bad Request" + goHeaders + "400 Bad Request\n",
		"HTTP/1.1 400 Bad Request" + goHeaders + "something else",
		"HTTP/1.1 200 OK" + goHeaders + "200 OK",
		"HTTP/1.1 400 Bad Request\r\nDate: x" + goHeaders + "400 Bad Request\r\nDate: x",
		"HTTP/1.0 400 Bad Request" + goHeaders + "400 Bad Request",
		"HTTP/1.1 40 Bad Request" + goHeaders + "40 Bad Request",
	} {
		if _, ok := Rewrite([]byte(p)); ok {
			t.Errorf("%q rewritten", p)
		}
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add([]byte("HTTP/1.1 400 Bad Request" + goHeaders + "400 Bad Request"))
	f.Add([]byte("HTTP/1.1 501 Not Implemented" + goHeaders + "Unsupported transfer encoding"))
	f.Fuzz(func(t *testing.T, p []byte) {
		out, ok := Rewrite(p)
		if !ok {
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		var body wire.ErrorBody
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error == "" {
			t.Fatalf("%q: %v", out, err)
		}
	})
}
