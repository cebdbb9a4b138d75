// Package smtptest is a local SMTP server for tests (github.com/emersion/
// go-smtp): it accepts every message and keeps it, and can be made to
// refuse messages, as a mail server that is down for a while.
package smtptest

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"

	"github.com/emersion/go-smtp"
)

// Message is one message the server took.
type Message struct {
	From string
	To   []string
	Data []byte
}

// Server is a running test SMTP server.
type Server struct {
	Addr string // host:port

	srv     *smtp.Server
	mu      sync.Mutex
	msgs    []Message
	refusal atomic.Bool
}

// New starts a server on a loopback port; Close it when done.
func New() (*Server, error) {
	s := &Server{}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.Addr = ln.Addr().String()
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { _ = s.srv.Close() }

// Refuse makes the server answer every message with a temporary failure
// (on) or take them again (off).
func (s *Server) Refuse(on bool) { s.refusal.Store(on) }

// Messages returns the messages taken so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type session struct {
	s   *Server
	msg Message
}

var errDown = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "test server refuses mail for now"}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.refusal.Load() {
		return errDown
	}
	x.msg = Message{From: from}
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(x.msg.To) == 0 {
		return errors.New("no recipient")
	}
	x.msg.Data = b
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, x.msg)
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.msg = Message{} }
func (x *session) Logout() error { return nil }
