package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The MCP SDK answers a request it cannot take (malformed JSON, an unknown
// method, a body over the cap, a wrong content type) with a text/plain
// error. A JSON-RPC client expects an error object there, so the refusals
// are rewritten into one, keeping the SDK's HTTP status (the streamable
// HTTP transport names an HTTP error status, with a JSON-RPC error as the
// body). The SDK keeps deciding what is refused; only the body changes.

// JSON-RPC 2.0 error codes (the specification's section 5.1).
const (
	RPCParseError     = -32700
	RPCInvalidRequest = -32600
	RPCMethodNotFound = -32601
	RPCInternalError  = -32603
)

// rpcError is a JSON-RPC 2.0 error response.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorBody    `json:"error"`
}

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// MaxBatch is the most calls one JSON-RPC batch may hold. Each call's
// answer is bounded (a card, a page of cards), but a batch multiplied it:
// 100 get_bundle calls of a large card answered hundreds of megabytes, in
// one request that admission counted once. A client with more calls sends
// more requests, each admitted and budgeted on its own.
const MaxBatch = 16

// serveJSONRPC serves r with h, answering the refusals h writes as plain
// text with a JSON-RPC error object instead, and a batch of more than
// MaxBatch calls with an invalid request error before h reads it.
func serveJSONRPC(h http.Handler, w http.ResponseWriter, r *http.Request) {
	if r.Body != nil {
		head, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		if err != nil {
			writeRPCError(w, http.StatusBadRequest, rpcError{JSONRPC: "2.0", ID: json.RawMessage("null"),
				Error: rpcErrorBody{Code: RPCParseError, Message: "the request body could not be read"}})
			return
		}
		if n := batchCalls(head); n > MaxBatch {
			writeRPCError(w, http.StatusBadRequest, rpcError{JSONRPC: "2.0", ID: json.RawMessage("null"),
				Error: rpcErrorBody{Code: RPCInvalidRequest, Message: fmt.Sprintf(
					"a JSON-RPC batch holds at most %d calls; this one holds %d: send the rest in other requests", MaxBatch, n)}})
			return
		}
		// What was read, then the rest: a body over MaxBody reaches h whole,
		// which refuses it as before.
		r.Body = readCloser{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	}
	var seen bytes.Buffer // what h read of the body, for the request's id
	if r.Body != nil {
		r.Body = readCloser{io.TeeReader(r.Body, &limitedWriter{&seen, MaxBody}), r.Body}
	}
	rw := &rpcRefusalWriter{ResponseWriter: w}
	h.ServeHTTP(rw, r)
	if !rw.wrote && r.Context().Err() != nil {
		// The request's time ran out while its calls were being made: the
		// SDK stops waiting for them and writes nothing, which a client
		// would read as an empty success.
		w.Header().Set("Retry-After", "5")
		writeRPCError(w, http.StatusServiceUnavailable, rpcError{JSONRPC: "2.0", ID: json.RawMessage("null"),
			Error: rpcErrorBody{Code: RPCInternalError, Message: "the calls of this request did not finish within its time budget: " +
				"make fewer or smaller calls in one request, or retry after Retry-After seconds"}})
		return
	}
	if !rw.refused {
		return
	}
	w.Header().Del("Content-Length")
	writeRPCError(w, rw.status, refusalError(rw.status, strings.TrimSpace(rw.text.String()), seen.Bytes()))
}

// writeRPCError answers e with the HTTP status status.
func writeRPCError(w http.ResponseWriter, status int, e rpcError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(e)
	_, _ = w.Write(append(b, '\n'))
}

// batchCalls is the number of calls in body when it is a JSON array (a
// JSON-RPC batch) of at most MaxBody bytes, else 0.
func batchCalls(body []byte) int {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(body) > MaxBody || len(trimmed) == 0 || trimmed[0] != '[' {
		return 0
	}
	var calls []json.RawMessage
	if json.Unmarshal(trimmed, &calls) != nil {
		return 0 // malformed: h refuses it with its parse error
	}
	return len(calls)
}

// refusalError maps one refusal of the SDK to its JSON-RPC error. The id is
// the request's when its body was a JSON object that had one, else null.
func refusalError(status int, text string, body []byte) rpcError {
	code := RPCInvalidRequest
	switch {
	case status >= 500:
		code = RPCInternalError
	case strings.HasPrefix(text, "JSON RPC not handled"):
		code = RPCMethodNotFound
	case status == http.StatusBadRequest && !json.Valid(body):
		code = RPCParseError
	}
	if text == "" {
		text = http.StatusText(status)
	}
	id := json.RawMessage("null")
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &req) == nil && validRPCID(req.ID) {
		id = req.ID
	}
	return rpcError{JSONRPC: "2.0", ID: id, Error: rpcErrorBody{Code: code, Message: text}}
}

// validRPCID reports whether raw is an id JSON-RPC allows: a string or a
// number (a null id is written as null anyway).
func validRPCID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// rpcRefusalWriter passes every answer through except an error status whose
// body is not JSON: that one it holds back, for serveJSONRPC to rewrite.
type rpcRefusalWriter struct {
	http.ResponseWriter
	wrote   bool
	refused bool
	status  int
	text    limitedBuffer
}

func (w *rpcRefusalWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if status >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.refused, w.status = true, status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcRefusalWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.refused {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush passes a flush through unless the answer is held back.
func (w *rpcRefusalWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.refused {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection underneath.
func (w *rpcRefusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// limitedBuffer keeps the first 1 KiB written to it: a refusal's text is a
// sentence, and a longer one is cut rather than held in memory.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	_, _ = (&limitedWriter{&b.Buffer, 1 << 10}).Write(p)
	return len(p), nil
}

// limitedWriter writes to w until it holds n bytes, then drops the rest.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}
