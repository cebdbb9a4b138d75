// Package ping takes submissions of bundle roots (POST /api/ping, IndexNow,
// and the submit_bundles MCP tool) and says what became of them (GET
// /api/ping/status). A submission is validated, then recorded and queued
// in one transaction with its verify_ping job; nothing is fetched here,
// the worker verifies the key. Each client is held to a rate per minute
// and each host to a daily cap.
package ping

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Store is what the ping routes read and write.
type Store interface {
	AcceptPing(ctx context.Context, host, key string, urls []string, enqueue store.EnqueueFunc) ([]store.PingURL, error)
	PingStatuses(ctx context.Context, host string, limit int, after int64) (store.PingStatusPage, error)
}

// Jobs inserts a job in a transaction (River's insert-only client).
type Jobs interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Deps are what the ping routes need.
type Deps struct {
	Store             Store
	Jobs              Jobs
	BaseURL           string           // PUBLIC_BASE_URL without a trailing slash
	Now               func() time.Time // the clock of the per-client limit and the daily cap
	PingRatePerMinute int              // PING_RATE_PER_MINUTE, per client
}

// Service answers the ping routes.
type Service struct {
	d     Deps
	limit *clientLimiter
}

// New builds the ping routes of d.
func New(d Deps) *Service {
	return &Service{d: d, limit: newClientLimiter(d.PingRatePerMinute, d.Now)}
}

// Routes are the ping routes' rows, the submit_bundles tool on POST's.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodPost, Path: "/api/ping", Summary: "Submit bundle roots of a domain (IndexNow)",
			Handler: s.postPing, Usage: route.CountedAsAPI, Tool: &route.Tool{Def: &mcp.Tool{
				Name:  "submit_bundles",
				Title: "Submit a domain's bundles (IndexNow)",
				Description: "Submit the bundle roots of a domain you control, as POST /api/ping does. First serve the " +
					"key file https://<host>/<key>.txt (or keyLocation on the same host) whose body is the key; then call " +
					"with urlList (1 to 100 https URLs on host ending in .md), host and key. The answer only queues the " +
					"URLs (estado pendente): the key file is checked later and each root is published when it matches. " +
					"At most 200 URLs per host per UTC day. GET /api/ping/status?host=<host> shows the outcome.",
				Annotations: &mcp.ToolAnnotations{IdempotentHint: true, OpenWorldHint: new(true)},
			}, Call: func(ctx context.Context, args map[string]any) (any, error) {
				body, err := json.Marshal(args)
				if err != nil {
					return nil, err
				}
				return s.submit(ctx, body)
			}}},
		{Method: http.MethodGet, Path: "/api/ping/status", Summary: "What became of a host's submissions",
			Handler: s.getPingStatus, Usage: route.CountedAsAPI, ReadsIndex: true},
	}
}

// maxPingBody caps the body of POST /api/ping: 100 URLs of several hundred
// characters fit with room to spare.
const maxPingBody = 64 << 10

// maxPingURLs is the most URLs one submission may carry (contract section 8).
const maxPingURLs = 100

// keyShape is the IndexNow key (contract 4.2).
var keyShape = regexp.MustCompile(`^[a-zA-Z0-9-]{8,128}$`)

// PingRequest is the body of POST /api/ping (contract 4.2).
type PingRequest struct {
	URLList     []*string `json:"urlList"` // nil entries are JSON nulls: a 400
	Host        string    `json:"host"`
	Key         string    `json:"key"`
	KeyLocation string    `json:"keyLocation"`
}

// pingSubmission is a validated submission.
type pingSubmission struct {
	host        string
	key         string
	keyLocation string
	urls        []string // distinct, in the order given
}

// postPing answers POST /api/ping: it validates the submission, and records
// and queues it in one transaction (the URL rows, the daily count and the
// verify_ping job). Nothing is fetched here; the worker verifies the key.
func (s *Service) postPing(c echo.Context) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxPingBody+1))
	if err != nil {
		return apierror.New(apierror.InvalidBody, "The body could not be read.")
	}
	if len(body) > maxPingBody {
		return apierror.New(apierror.BodyTooLarge, fmt.Sprintf("The body is over %d bytes.", maxPingBody))
	}
	ack, err := s.submit(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusAccepted, ack)
}

// submit validates a submission body and records and queues it; POST
// /api/ping and the submit_bundles tool both answer with it.
func (s *Service) submit(ctx context.Context, body []byte) (wire.PingAck, error) {
	if ok, wait := s.limit.allow(caller.Client(ctx)); !ok {
		return wire.PingAck{}, apierror.New(apierror.RateLimited, fmt.Sprintf("This client sent more than %d submissions in a minute; retry in %s s.", s.d.PingRatePerMinute, respond.RetryAfterSeconds(wait))).After(wait)
	}
	sub, err := parsePing(body)
	if err != nil {
		return wire.PingAck{}, err
	}
	_, err = s.d.Store.AcceptPing(ctx, sub.host, sub.key, sub.urls, func(ctx context.Context, tx pgx.Tx, urls []store.PingURL) error {
		_, err := s.d.Jobs.InsertTx(ctx, tx, jobs.VerifyPingArgs{
			Host: sub.host, Key: sub.key, KeyLocation: sub.keyLocation, URLs: urls,
		}, nil)
		return err
	})
	if errors.Is(err, store.ErrPingDailyCap) {
		wait := untilNextUTCDay(s.d.Now())
		return wire.PingAck{}, apierror.New(apierror.DailyCapReached, fmt.Sprintf("This submission would take %s past %d URLs this UTC day; nothing was queued.", sub.host, store.PingDailyCap)).At("urlList").After(wait)
	}
	if err != nil {
		return wire.PingAck{}, err
	}
	return wire.PingAck{
		OK:       true,
		State:    wire.PingPending,
		Host:     sub.host,
		Received: len(sub.urls),
		KeyURL:   sub.keyLocation,
		Message:  "The URLs are queued; each is published once the key file at chave_em holds the key, and GET /api/ping/status shows the outcome.",
		APIIndex: s.d.BaseURL + "/api/",
	}, nil
}

// parsePing validates a body against contract 4.2 and section 7: shape
// faults are 400, URL faults 422. Checks run in field order (host, key,
// urlList, each URL, keyLocation) and the first fault answers.
func parsePing(body []byte) (pingSubmission, error) {
	var req PingRequest
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		// json.Unmarshal takes null (and nothing else but an object)
		// without complaint, leaving every field empty.
		return pingSubmission{}, apierror.New(apierror.InvalidBody, "The body must be a JSON object.")
	}
	if err := json.Unmarshal(body, &req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return pingSubmission{}, apierror.New(apierror.InvalidBody, fmt.Sprintf("%s must be a JSON %s.", te.Field, jsonKind(te.Field))).At(te.Field)
		}
		return pingSubmission{}, apierror.New(apierror.InvalidBody, "The body must be a JSON object.")
	}
	host, ok := normalizeHost(req.Host)
	if !ok {
		return pingSubmission{}, apierror.New(apierror.InvalidHost, "host must be a domain name (no scheme, port, path or IP address).").At("host")
	}
	if !keyShape.MatchString(req.Key) {
		return pingSubmission{}, apierror.New(apierror.InvalidKey, "key must be 8 to 128 characters of a-z, A-Z, 0-9 and -.").At("key")
	}
	if len(req.URLList) == 0 || len(req.URLList) > maxPingURLs {
		return pingSubmission{}, apierror.New(apierror.InvalidURLList, fmt.Sprintf("urlList must hold 1 to %d URLs.", maxPingURLs)).At("urlList")
	}
	sub := pingSubmission{host: host, key: req.Key}
	seen := map[string]bool{}
	for i, raw := range req.URLList {
		field := fmt.Sprintf("urlList[%d]", i)
		if raw == nil {
			return pingSubmission{}, apierror.New(apierror.InvalidBody, field+" must be a string.").At(field)
		}
		u, err := onHost(*raw, host, field, apierror.URLNotHTTPS, apierror.URLOffHost)
		if err != nil {
			return pingSubmission{}, err
		}
		if u.RawQuery != "" || u.Fragment != "" || !strings.HasSuffix(strings.ToLower(u.Path), ".md") {
			return pingSubmission{}, apierror.New(apierror.URLNotMarkdown, field+" must be a bundle root ending in .md, with no query or fragment.").At(field)
		}
		if s := u.String(); !seen[s] {
			seen[s] = true
			sub.urls = append(sub.urls, s)
		}
	}
	sub.keyLocation = "https://" + host + "/" + req.Key + ".txt"
	if req.KeyLocation != "" {
		u, err := onHost(req.KeyLocation, host, "keyLocation", apierror.KeyLocationNotHTTPS, apierror.KeyLocationOffHost)
		if err != nil {
			return pingSubmission{}, err
		}
		sub.keyLocation = u.String()
	}
	return sub, nil
}

// onHost parses raw as an absolute https URL on host (no port other than
// 443, no userinfo) and returns it with the host in its normalized form.
func onHost(raw, host, field, notHTTPS, offHost string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" || u.Opaque != "" {
		return nil, apierror.New(notHTTPS, field+" must be an absolute https URL.").At(field)
	}
	h, ok := normalizeHost(u.Hostname())
	if !ok || h != host || u.User != nil || (u.Port() != "" && u.Port() != "443") {
		return nil, apierror.New(offHost, field+" must live on host "+host+".").At(field)
	}
	u.Scheme, u.Host = "https", host
	return u, nil
}

// domainLabel is one label of a domain name (ASCII; IDNs in punycode).
var domainLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// normalizeHost lowercases a domain name and drops one trailing dot. It
// refuses anything that is not a domain of two labels or more: IP
// addresses (an all-digit last label), ports, userinfo, paths, and
// non-ASCII names (send them in punycode).
func normalizeHost(h string) (string, bool) {
	for i := range len(h) {
		if h[i] >= utf8.RuneSelf {
			// Before lowering: strings.ToLower maps some non-ASCII letters
			// to ASCII ones (the Kelvin sign K to k).
			return "", false
		}
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" || len(h) > 253 {
		return "", false
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return "", false
	}
	for _, l := range labels {
		if !domainLabel.MatchString(l) {
			return "", false
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", false
	}
	return h, true
}

// jsonKind is the JSON type a PingRequest field takes.
func jsonKind(field string) string {
	if field == "urlList" {
		return "array of strings"
	}
	return "string"
}
