// Package protoerr owns the answers Go's HTTP server writes by itself,
// before any handler runs, to a request it cannot read: a path whose
// percent escapes are not two hex digits, a malformed header line, a
// missing Host, headers past http.Server.MaxHeaderBytes, a transfer coding
// or a protocol version it does not take. Go writes those as fixed
// plain-text answers straight to the connection; Listener rewrites each into
// the API's JSON error body, keeping the status Go chose and closing the
// connection as Go does.
//
// Only a write that is, whole, one of Go's fixed refusals, made after the
// server began reading a request and before it wrote anything for it, is
// rewritten: response bytes (whose content a bundle's author may choose)
// are never touched, so framing cannot change under a client.
package protoerr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Listener wraps the API's listener so that Go's own refusals answer as
// JSON errors.
type Listener struct{ net.Listener }

// Accept wraps each connection.
func (l Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pc := &conn{Conn: c}
	pc.armed.Store(true) // nothing written yet: the first request's refusal
	return pc, nil
}

// conn rewrites Go's refusals. armed is set when the connection opens and
// whenever the server sets its read deadline (net/http does between a
// response and the next request on a kept-alive connection, and at the
// start of each request when a header timeout is set), and cleared by any
// write, so a write can be a refusal only if it is the first after a
// request began. The first write of a response is its status line and
// headers, Date among them, which is never one of Go's refusals.
type conn struct {
	net.Conn
	armed atomic.Bool
}

func (c *conn) SetReadDeadline(t time.Time) error {
	c.armed.Store(true)
	return c.Conn.SetReadDeadline(t)
}

func (c *conn) SetDeadline(t time.Time) error {
	c.armed.Store(true)
	return c.Conn.SetDeadline(t)
}

func (c *conn) Write(p []byte) (int, error) {
	if c.armed.Swap(false) {
		if answer, ok := Rewrite(p); ok {
			if _, err := c.Conn.Write(answer); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// goHeaders are the header lines of every refusal net/http writes itself.
const goHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// Rewrite is the JSON answer for p when p is, whole, one of net/http's
// fixed refusals: "HTTP/1.1 <code> <reason>[: <detail>]" and goHeaders,
// then the same status text (or, for 501, "Unsupported transfer encoding").
func Rewrite(p []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !ok {
		return nil, false
	}
	status, body, ok := bytes.Cut(rest, []byte(goHeaders))
	if !ok || bytes.ContainsAny(status, "\r\n") || len(status) < 4 || status[3] != ' ' {
		return nil, false
	}
	code, err := strconv.Atoi(string(status[:3]))
	if err != nil {
		return nil, false
	}
	if !bytes.Equal(body, status) && !(code == http.StatusNotImplemented && string(body) == "Unsupported transfer encoding") {
		return nil, false
	}
	name, message := refusal(code, string(status))
	if name == "" {
		return nil, false
	}
	js, err := json.Marshal(wire.ErrorBody{Error: name, Message: message})
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", code, http.StatusText(code))
	b.WriteString("Connection: close\r\n")
	b.WriteString("Cache-Control: no-store\r\n")
	b.WriteString("Content-Type: application/json\r\n")
	fmt.Fprintf(&b, "Content-Length: %d\r\n", len(js))
	b.WriteString("X-Content-Type-Options: nosniff\r\n\r\n")
	b.Write(js)
	return b.Bytes(), true
}

// refusal names Go's refusal of status line status (code, reason and
// Go's detail, if any) and says what was wrong in a sentence.
func refusal(code int, status string) (name, message string) {
	detail := ""
	if _, d, ok := bytes.Cut([]byte(status), []byte(": ")); ok {
		detail = " (" + string(d) + ")"
	}
	switch code {
	case http.StatusBadRequest:
		return apierror.InvalidRequest, "The request could not be read" + detail +
			": its request line or a header is malformed, for example a % in the path not followed by two hexadecimal digits. Percent-encode the path and query and send one Host header."
	case http.StatusRequestHeaderFieldsTooLarge:
		return apierror.HeadersTooLarge, "The request line and headers are over 1 MiB; send less in them (a body carries data)."
	case http.StatusNotImplemented:
		return apierror.UnsupportedTransferCoding, "The request's Transfer-Encoding is not one this service takes; send the body with Content-Length or as chunked."
	case http.StatusHTTPVersionNotSupported:
		return apierror.UnsupportedHTTPVersion, "The request's HTTP version is not one this service takes" + detail + "; send HTTP/1.0 or HTTP/1.1."
	}
	return "", ""
}
