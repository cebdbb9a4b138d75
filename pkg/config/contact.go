package config

import (
	"fmt"
	"net"
	"net/mail"
	"net/url"
)

// Contact configures POST /api/contact of the full variant: where its mail
// goes (SMTP) and how the human path's captcha is verified. The route
// answers 503 while either is unset.
type Contact struct {
	MailTo        string // CONTACT_MAIL_TO: the address messages are sent to
	MailFrom      string // SMTP_FROM: the sender; defaults to MailTo
	SMTPAddr      string // SMTP_ADDR: host:port of the submission server
	SMTPUsername  string // SMTP_USERNAME: PLAIN auth (over TLS or to loopback); "" for none
	SMTPPassword  string // SMTP_PASSWORD
	CaptchaURL    string // CAPTCHA_VERIFY_URL: the siteverify endpoint
	CaptchaSecret string // CAPTCHA_SECRET
}

// MailConfigured reports whether messages can be sent.
func (c Contact) MailConfigured() bool { return c.MailTo != "" && c.SMTPAddr != "" }

// CaptchaConfigured reports whether the human path can verify a captcha.
func (c Contact) CaptchaConfigured() bool { return c.CaptchaURL != "" && c.CaptchaSecret != "" }

// loadContact reads the contact variables into c.
func loadContact(getenv func(string) string, c *Config) error {
	k := Contact{
		MailTo: getenv("CONTACT_MAIL_TO"), MailFrom: getenv("SMTP_FROM"), SMTPAddr: getenv("SMTP_ADDR"),
		SMTPUsername: getenv("SMTP_USERNAME"), SMTPPassword: getenv("SMTP_PASSWORD"),
		CaptchaURL: getenv("CAPTCHA_VERIFY_URL"), CaptchaSecret: getenv("CAPTCHA_SECRET"),
	}
	for name, v := range map[string]string{"CONTACT_MAIL_TO": k.MailTo, "SMTP_FROM": k.MailFrom} {
		if v == "" {
			continue
		}
		if _, err := mail.ParseAddress(v); err != nil {
			return fmt.Errorf("config: %s %q must be an e-mail address", name, v)
		}
	}
	if k.MailFrom == "" {
		k.MailFrom = k.MailTo
	}
	if k.SMTPAddr != "" {
		if _, _, err := net.SplitHostPort(k.SMTPAddr); err != nil {
			return fmt.Errorf("config: SMTP_ADDR %q must be host:port", k.SMTPAddr)
		}
	}
	if k.CaptchaURL != "" {
		if u, err := url.Parse(k.CaptchaURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("config: CAPTCHA_VERIFY_URL %q must be an absolute http(s) URL", k.CaptchaURL)
		}
	}
	c.Contact = k
	return nil
}
