package worker

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/smtp"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// SendContactWorker sends queued contact messages (send_contact) over SMTP
// to the configured address. The message row is locked while it is sent
// and marked sent in the same transaction, so a retry after a failure
// sends it, and a retry after success finds it sent. Message-ID is derived
// from the row, so a receiver can also drop a duplicate should the process
// die between the server's acceptance and the commit.
type SendContactWorker struct {
	river.WorkerDefaults[jobs.SendContactArgs]
	Store  *store.Store
	Mail   config.Contact
	Host   string // for Message-ID: the public base URL's host
	Logger *slog.Logger
}

// SendContactTimeout bounds one attempt: dial, TLS, auth and data.
const SendContactTimeout = 30 * time.Second

// Timeout bounds one attempt.
func (w *SendContactWorker) Timeout(*river.Job[jobs.SendContactArgs]) time.Duration {
	return SendContactTimeout
}

// Work sends one message.
func (w *SendContactWorker) Work(ctx context.Context, job *river.Job[jobs.SendContactArgs]) error {
	if !w.Mail.MailConfigured() {
		return errors.New("send_contact: mail is not configured (CONTACT_MAIL_TO, SMTP_ADDR)")
	}
	sent, err := w.Store.SendContact(ctx, job.Args.ID, func(m store.PendingContact) error {
		return w.send(ctx, m)
	})
	if errors.Is(err, store.ErrNotFound) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	w.Logger.InfoContext(ctx, "contact message", "id", job.Args.ID, "sent", sent)
	return nil
}

// send hands one message to the SMTP server.
func (w *SendContactWorker) send(ctx context.Context, m store.PendingContact) error {
	host, _, _ := net.SplitHostPort(w.Mail.SMTPAddr)
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", w.Mail.SMTPAddr)
	if err != nil {
		return fmt.Errorf("send_contact: dial: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("send_contact: hello: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
			return fmt.Errorf("send_contact: starttls: %w", err)
		}
	}
	if w.Mail.SMTPUsername != "" {
		// net/smtp refuses PLAIN without TLS except to localhost.
		if err := c.Auth(smtp.PlainAuth("", w.Mail.SMTPUsername, w.Mail.SMTPPassword, host)); err != nil {
			return fmt.Errorf("send_contact: auth: %w", err)
		}
	}
	if err := c.Mail(w.Mail.MailFrom); err != nil {
		return fmt.Errorf("send_contact: mail from: %w", err)
	}
	if err := c.Rcpt(w.Mail.MailTo); err != nil {
		return fmt.Errorf("send_contact: rcpt: %w", err)
	}
	wc, err := c.Data()
	if err != nil {
		return fmt.Errorf("send_contact: data: %w", err)
	}
	if _, err := wc.Write(w.message(m)); err != nil {
		return fmt.Errorf("send_contact: write: %w", err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("send_contact: end of data: %w", err)
	}
	return c.Quit()
}

// message is the RFC 5322 text of a contact message: plain text, the
// writer's address in Reply-To, never in From.
func (w *SendContactWorker) message(m store.PendingContact) []byte {
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\n", w.Mail.MailFrom)
	fmt.Fprintf(&b, "To: %s\r\n", w.Mail.MailTo)
	fmt.Fprintf(&b, "Reply-To: %s\r\n", mime.QEncoding.Encode("utf-8", oneLine(m.Email)))
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", "[OKF Index] contact ("+m.Path+") from "+oneLine(m.Name)))
	fmt.Fprintf(&b, "Message-ID: <contact-%d@%s>\r\n", m.ID, w.Host)
	fmt.Fprintf(&b, "Date: %s\r\n", m.CreatedAt.UTC().Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	body := fmt.Sprintf("Name: %s\nE-mail: %s\nPath: %s\n", oneLine(m.Name), oneLine(m.Email), m.Path)
	if len(m.Proposal) > 0 {
		body += "Proposal: " + string(m.Proposal) + "\n"
	}
	body += "\n" + m.Message + "\n"
	// Dot-stuffing is the DATA writer's; lines end in CRLF.
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	return b.Bytes()
}
