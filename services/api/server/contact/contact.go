// Package contact answers POST /api/contact of the full variant (contract
// 3.4, 4.6): the human form, verified by its captcha and form time, and an
// agent's message, paid as package billing decides. The message is a row
// of the contact outbox written in the same transaction as its payment and
// its send_contact job, so nothing is charged without a message queued;
// the worker sends it once.
package contact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/captcha"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// How a message is taken:
//
// A request with captcha_response takes the human path: the captcha is
// verified at the configured siteverify endpoint and form_ts must be sane.
// Any other request is an agent's. An agent is recognised by its API key
// when it presents one (X-Api-Key or Bearer hsk_), else by its client
// address (TRUSTED_PROXY_HEADER-aware; IPv6 by /64). Its first message is
// free; later ones cost billing.ContactPriceMicros, paid with x402 or credit; an
// unpaid one is 402 (accepts[]) and starts a wait, doubling from 60 s to
// an hour, within which unpaid requests are 429 with Retry-After.
//
// The message is a row of the contact outbox written in the same
// transaction as its payment and its send_contact job, so nothing is
// charged without a message queued; the worker sends it once.

// Store is the contact outbox.
type Store interface {
	QueueContact(ctx context.Context, m store.ContactMessage, pay store.ContactPayment, now time.Time, enqueue store.ContactEnqueueFunc) (int64, error)
}

// Jobs inserts a job in a transaction (River's insert-only client).
type Jobs interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Deps are what the contact route needs.
type Deps struct {
	Store      Store
	Jobs       Jobs
	Billing    *billing.Service // how an agent's message is paid
	Captcha    captcha.Verifier // the human path's siteverify
	Configured bool             // mail and captcha are configured
	Now        func() time.Time // the clock of the form time and the backoff
}

// Service answers POST /api/contact.
type Service struct{ d Deps }

// New builds the contact route of d.
func New(d Deps) *Service { return &Service{d: d} }

// Routes is the route's row.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodPost, Path: "/api/contact", Summary: "Write to the house: the human form with captcha, or an agent's paid message", Full: true,
			Handler: s.postContact, Usage: route.CountedAsAPI, Credentials: route.TakesCredit},
	}
}

// Bounds of a contact body.
const (
	maxContactBody    = 32 << 10
	maxContactName    = 200
	maxContactMessage = 10000
	maxContactText    = 200 // empresa, site
	// form_ts: opened at least minFormAge and at most maxFormAge ago;
	// formClockSkew of a browser clock ahead is tolerated.
	minFormAge    = 2 * time.Second
	maxFormAge    = 24 * time.Hour
	formClockSkew = 5 * time.Second
	// formTSMillis: a form_ts above it is milliseconds (year 5138 in seconds).
	formTSMillis = 100_000_000_000
)

// Request is the body of POST /api/contact.
type Request struct {
	Name            string   `json:"name"`
	Email           string   `json:"email"`
	Message         string   `json:"message"`
	FormTS          *int64   `json:"form_ts"`
	CaptchaResponse *string  `json:"captcha_response"`
	Kind            string   `json:"tipo"`
	Company         string   `json:"empresa"`
	Site            string   `json:"site"`
	Budget          string   `json:"orcamento"`
	Placements      []string `json:"espaco"`
	Duration        string   `json:"duracao"`
	PaymentMethod   string   `json:"pagamento"`
}

// Answer is the answer of POST /api/contact.
type Answer struct {
	OK   bool   `json:"ok"`
	Path string `json:"path"`
}

// Allowed values of the proposal fields (contract 4.6).
var (
	contactBudgets        = []string{"ate_100", "100_500", "500_2000", "2000_mais", "a_combinar"}
	contactDurations      = []string{"30", "90", "365"}
	contactPaymentMethods = []string{"usdc", "deposito", "a_combinar"}
)

// Parse decodes and checks a contact body. It returns the message
// to queue (Path left for the caller) and the human path's captcha
// response and form time, when given.
func Parse(body []byte) (m store.ContactMessage, req Request, err error) {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return m, req, apierror.New(apierror.InvalidBody, "The body must be a JSON object.")
	}
	if err := json.Unmarshal(body, &req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return m, req, apierror.New(apierror.InvalidField, fmt.Sprintf("%s has the wrong JSON type.", te.Field)).At(te.Field)
		}
		return m, req, apierror.New(apierror.InvalidBody, "The body must be a JSON object.")
	}
	for _, f := range []struct{ name, v string }{{"name", req.Name}, {"email", req.Email}, {"message", req.Message}} {
		if strings.TrimSpace(f.v) == "" {
			return m, req, apierror.New(apierror.MissingField, f.name+" is required.").At(f.name)
		}
	}
	if req.CaptchaResponse != nil {
		if strings.TrimSpace(*req.CaptchaResponse) == "" {
			return m, req, apierror.New(apierror.MissingField, "captcha_response is empty.").At("captcha_response")
		}
		if req.FormTS == nil {
			return m, req, apierror.New(apierror.MissingField, "form_ts is required on the human path (with captcha_response).").At("form_ts")
		}
	}
	switch {
	case len([]rune(req.Name)) > maxContactName:
		return m, req, apierror.New(apierror.InvalidField, fmt.Sprintf("name is over %d characters.", maxContactName)).At("name")
	case len(req.Email) > 254 || !validEmail(req.Email):
		return m, req, apierror.New(apierror.InvalidField, "email must be one e-mail address.").At("email")
	case len([]rune(req.Message)) > maxContactMessage:
		return m, req, apierror.New(apierror.InvalidField, fmt.Sprintf("message is over %d characters.", maxContactMessage)).At("message")
	}
	m = store.ContactMessage{Name: strings.TrimSpace(req.Name), Email: strings.TrimSpace(req.Email), Message: req.Message}
	if m.Proposal, err = parseProposal(req); err != nil {
		return m, req, err
	}
	return m, req, nil
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == strings.TrimSpace(s)
}

// parseProposal checks the proposal fields; tipo turns them on.
func parseProposal(req Request) (map[string]any, error) {
	if req.Kind == "" {
		if req.Company != "" || req.Site != "" || req.Budget != "" || len(req.Placements) > 0 || req.Duration != "" || req.PaymentMethod != "" {
			return nil, apierror.New(apierror.MissingField, "tipo is required with the proposal fields (patrocinio, parceria or anuncio).").At("tipo")
		}
		return nil, nil
	}
	oneOf := func(field, v string, allowed []string) error {
		if v != "" && !slices.Contains(allowed, v) {
			return apierror.New(apierror.InvalidField, fmt.Sprintf("%s must be one of %s.", field, strings.Join(allowed, ", "))).At(field)
		}
		return nil
	}
	if !slices.Contains(wire.PartnershipKinds, req.Kind) {
		return nil, apierror.New(apierror.InvalidField, "tipo must be one of "+strings.Join(wire.PartnershipKinds, ", ")+".").At("tipo")
	}
	for _, check := range []error{oneOf("orcamento", req.Budget, contactBudgets), oneOf("duracao", req.Duration, contactDurations),
		oneOf("pagamento", req.PaymentMethod, contactPaymentMethods)} {
		if check != nil {
			return nil, check
		}
	}
	if len([]rune(req.Company)) > maxContactText || len([]rune(req.Site)) > maxContactText {
		return nil, apierror.New(apierror.InvalidField, fmt.Sprintf("empresa and site are at most %d characters.", maxContactText)).At("empresa")
	}
	if len(req.Placements) > wire.MaxProposalPlacements {
		return nil, apierror.New(apierror.InvalidField, fmt.Sprintf("espaco names at most %d placements.", wire.MaxProposalPlacements)).At("espaco")
	}
	for i, e := range req.Placements {
		if !slices.Contains(wire.PlacementIDs, e) || slices.Contains(req.Placements[:i], e) {
			return nil, apierror.New(apierror.InvalidField, "espaco holds distinct placement ids of GET /api/partners: "+strings.Join(wire.PlacementIDs, ", ")+".").At("espaco")
		}
	}
	p := map[string]any{"tipo": req.Kind}
	for k, v := range map[string]string{"empresa": req.Company, "site": req.Site, "orcamento": req.Budget, "duracao": req.Duration, "pagamento": req.PaymentMethod} {
		if v != "" {
			p[k] = v
		}
	}
	if len(req.Placements) > 0 {
		p["espaco"] = req.Placements
	}
	return p, nil
}

// checkFormTS applies the human path's form time: not in the future, not
// older than a day, not filled in under two seconds. It takes seconds or
// milliseconds since the epoch (Date.now()).
func checkFormTS(ts int64, now time.Time) error {
	t := time.Unix(ts, 0)
	if ts > formTSMillis {
		t = time.UnixMilli(ts)
	}
	age := now.Sub(t)
	switch {
	case age < -formClockSkew:
		return apierror.New(apierror.InvalidField, "form_ts is in the future.").At("form_ts")
	case age > maxFormAge:
		return apierror.New(apierror.InvalidField, "form_ts is over a day old; reload the form.").At("form_ts")
	case age < minFormAge:
		return apierror.New(apierror.InvalidField, "The form was sent less than two seconds after it was opened.").At("form_ts")
	}
	return nil
}

// AgentOf recognises the agent of a request: the account that owns its
// API key (every key of an account is one agent, so the free message and
// the backoff are the account's; an organization's key is the
// organization's), else its client's network block.
func AgentOf(c echo.Context) string {
	if k, ok := caller.APIKey(c); ok {
		if k.OrganizationID != nil {
			return "org:" + *k.OrganizationID
		}
		return "account:" + k.IdentityID
	}
	return "ip:" + caller.Client(c.Request().Context()).String()
}

// postContact answers POST /api/contact [full only].
func (s *Service) postContact(c echo.Context) error {
	billing.ExposeHeaders(c.Response().Header())
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxContactBody+1))
	if err != nil || len(body) > maxContactBody {
		return apierror.New(apierror.InvalidBody, fmt.Sprintf("The body must be a JSON object of at most %d bytes.", maxContactBody))
	}
	m, req, err := Parse(body)
	if err != nil {
		return err
	}
	if !s.d.Configured {
		return apierror.New(apierror.ContactUnavailable,
			"Contact is not configured on this deployment (mail or captcha); nothing was charged.")
	}
	ctx := c.Request().Context()
	now := s.d.Now()
	if req.CaptchaResponse != nil {
		if err := s.verifyHuman(ctx, req, now); err != nil {
			return err
		}
		m.Path = store.ContactHuman
		if _, err := s.d.Store.QueueContact(ctx, m, store.ContactPayment{}, now, s.enqueueContact); err != nil {
			return err
		}
		return respond.JSON(c, http.StatusOK, Answer{OK: true, Path: m.Path})
	}
	return s.agentContact(c, m, now)
}

// verifyHuman checks the human path: form time, then the captcha.
func (s *Service) verifyHuman(ctx context.Context, req Request, now time.Time) error {
	if err := checkFormTS(*req.FormTS, now); err != nil {
		return err
	}
	ok, err := s.d.Captcha.Verify(ctx, *req.CaptchaResponse, caller.Client(ctx).Addr().String())
	if errors.Is(err, captcha.ErrUnavailable) {
		return apierror.New(apierror.ContactUnavailable, "The captcha could not be verified now; retry later.")
	}
	if err != nil {
		return err
	}
	if !ok {
		return apierror.New(apierror.InvalidCaptcha, "The captcha response was not accepted; solve it again.").At("captcha_response")
	}
	return nil
}

// agentContact is the agent path: package billing decides how the
// message is paid (credit, x402, the free first message, dev) or refuses
// it (402, or 429 within the backoff), and queues it.
func (s *Service) agentContact(c echo.Context, m store.ContactMessage, now time.Time) error {
	m.Agent = AgentOf(c)
	ctx := c.Request().Context()
	path, err := s.d.Billing.QueueAgentContact(ctx, c.Request().Header, c.Response().Header(), m, now,
		caller.Client(ctx).String(), s.enqueueContact)
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, Answer{OK: true, Path: path})
}

// enqueueContact inserts the send job of a queued message in its
// transaction.
func (s *Service) enqueueContact(ctx context.Context, tx pgx.Tx, id int64) error {
	_, err := s.d.Jobs.InsertTx(ctx, tx, jobs.SendContactArgs{ID: id}, nil)
	return err
}
