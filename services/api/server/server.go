// Package server is the HTTP API of OKF Index: the route table, the handlers,
// query validation, error mapping and the middleware. Handlers parse the
// request, call pkg/store and encode the answer; the server holds no SQL and
// no business rules, and it never calls out to the network (the full
// variant's identity keys are fetched by pkg/identity).
//
// Absolute URLs in answers (a card's api, a page's next, the index's
// base_url, the OpenAPI servers) come only from the configured public base
// URL, never from the request's Host header.
package server

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/captcha"
	"github.com/okfindex/okf-index/pkg/clientreport"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/logging"
	offer "github.com/okfindex/okf-index/pkg/partners"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/contact"
	"github.com/okfindex/okf-index/services/api/server/discovery"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
	"github.com/okfindex/okf-index/services/api/server/metrics"
	"github.com/okfindex/okf-index/services/api/server/pages"
	"github.com/okfindex/okf-index/services/api/server/partners"
	"github.com/okfindex/okf-index/services/api/server/ping"
	"github.com/okfindex/okf-index/services/api/server/repostatus"
	"github.com/okfindex/okf-index/services/api/server/route"
	"github.com/okfindex/okf-index/services/api/server/search"
	"github.com/okfindex/okf-index/services/api/server/vitrine"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// AppName is the service's display name (package discovery's).
const AppName = discovery.AppName

// Options configure a Server.
type Options struct {
	// Config supplies PublicBaseURL and Variant.
	Config config.Config
	// Build is the published commit; "dev" outside the CI.
	Build string
	// Logger receives the request log; slog.Default() when nil.
	Logger *slog.Logger
	// Metrics, when set, receives the request count and latency by route
	// (okf_http_*), served on the operator listener.
	Metrics prometheus.Registerer
	// Now is the clock of the per-client limits, the contact backoff and
	// the payment checks (tests); time.Now when nil.
	Now func() time.Time
	// PaymentTimeout bounds one facilitator call (x402.DefaultTimeout when
	// 0); tests shorten it.
	PaymentTimeout time.Duration
	// RequestTimeout bounds one request's work (requestTimeout when 0);
	// tests of answer sizes lengthen it on a loaded machine.
	RequestTimeout time.Duration
}

// Server is the API's http.Handler. It is safe for concurrent use.
type Server struct {
	echo    *echo.Echo
	cfg     config.Config
	store   *store.Store
	jobs    *river.Client[pgx.Tx] // insert-only: enqueues verify_ping with the ping rows
	baseURL string                // PUBLIC_BASE_URL without a trailing slash
	full    bool
	build   string
	routes  []Route      // the routes of this variant
	byPath  route.ByPath // s.routes by Echo route path, for the middleware

	now func() time.Time

	mcp     *mcpserver.Server // POST /mcp
	usage   *usage.Counter
	metrics *metrics.Service // GET /api/metrics
	reports *clientreport.Reporter
	account *account.Service   // full variant: sessions, CSRF, API keys, the account page
	billing *billing.Service   // x402 payments, prices, and how a contact is paid
	stop    context.CancelFunc // ends the usage and report loops
	stopped chan struct{}      // closed when both loops have ended

	// Full variant: the partnership offer (PARTNERS_FILE) and GET /api/partners.
	offer      *offer.Offer
	partners   *partners.Service
	vitrine    *vitrine.Service    // full variant: the usage projection and the operator's views
	ping       *ping.Service       // submissions of bundle roots and their outcome
	repoStatus *repostatus.Service // what the sweep made of a repository
	discovery  *discovery.Service  // GET /api/, health, and the documents for agents
	contact    *contact.Service    // full variant: POST /api/contact

	// Started is when this process started: the Last-Modified of what it
	// writes once (the documents, opensearch.xml).
	started time.Time
	web     *web.Site      // renders the pages for people (and the HTML error pages)
	pages   *pages.Service // the pages' routes

	search    *search.Service // search, cards, statistics and the change feed
	admission *admission      // index reads in flight (admission.go)
	log       *slog.Logger    // what is served anyway, degraded (didYouMean)
}

// New builds the API of st for the configured variant, with an insert-only
// River client (no workers) on st's pool. It fails only when the embedded
// OpenAPI document cannot be read or the River client cannot be built.
func New(st *store.Store, opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	// Every line logged with a request's context carries its request id.
	log = slog.New(logging.Wrap(log.Handler()))
	build := opts.Build
	if build == "" {
		build = "dev"
	}
	s := &Server{
		cfg:     opts.Config,
		store:   st,
		baseURL: opts.Config.PublicBaseURL,
		full:    opts.Config.Full(),
		build:   build,
		log:     log,
	}
	var err error
	// loops ends the background work: the usage and report loops, and the
	// refresh of the identity keys.
	loops, stop := context.WithCancel(context.Background())
	defer func() {
		if s.stop == nil { // New failed
			stop()
		}
	}()
	if s.web, err = web.New(); err != nil {
		return nil, fmt.Errorf("server: web pages: %w", err)
	}
	if s.full {
		if s.account, err = account.New(loops, opts.Config, log, account.Deps{Store: st, Site: s.web, BaseURL: s.baseURL,
			SignInURL: opts.Config.Auth.SignInURL}); err != nil {
			return nil, fmt.Errorf("server: accounts: %w", err)
		}
		// A bad offer file stops the start, naming the file and the field.
		if s.offer, err = offer.Load(opts.Config.PartnersFile); err != nil {
			return nil, fmt.Errorf("server: PARTNERS_FILE: %w", err)
		}
	}
	s.usage = usage.New(st, log, nil)
	s.reports = clientreport.New(log, clientreport.Options{MaxPending: maxPendingReports})
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s.now = now
	if s.billing, err = billing.New(opts.Config, st, now, opts.PaymentTimeout); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	readConns, lookupConns := defaultConns, defaultConns
	if st != nil {
		readConns, lookupConns = st.ReadConns()
	}
	s.admission = newAdmission(readConns, lookupConns)
	if st != nil {
		if s.jobs, err = river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{Logger: log}); err != nil {
			return nil, fmt.Errorf("server: river insert client: %w", err)
		}
		s.billing.UseJobs(s.jobs)
	}
	s.buildCapabilities(st, opts.Config)
	if opts.Metrics != nil {
		s.search.RegisterMetrics(opts.Metrics)
	}
	s.routes = route.ForVariant(s.routeTable(), s.full)
	s.byPath = route.NewByPath(s.routes)
	if s.mcp, err = mcpserver.New(mcpserver.Options{Routes: s.routes, Full: s.full, Title: AppName, Build: build, BaseURL: s.baseURL,
		Log: log, ToolCalled: s.countToolCall}); err != nil {
		return nil, fmt.Errorf("server: mcp: %w", err)
	}

	if err := s.discovery.Publish(s.routes, s.routeTable(), s.mcp.Listed); err != nil {
		return nil, fmt.Errorf("server: discovery documents: %w", err)
	}

	s.echo = s.newRouter(log, opts)

	s.startLoops(loops, stop)
	return s, nil
}

// newRouter mounts the middleware and every route of the table; every
// GET also answers HEAD.
func (s *Server) newRouter(log *slog.Logger, opts Options) *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.Use(middlewares(log, opts.Metrics, s.byPath, cmp.Or(opts.RequestTimeout, requestTimeout))...)
	e.Use(s.admission.middleware(s.byPath))
	e.Use(caller.Middleware(opts.Config.TrustedProxyHeader), discovery.Links(s.baseURL))
	e.Use(s.countUsage)
	if s.full {
		e.Use(s.account.APIKeyMiddleware(s.byPath))
	}
	for _, r := range s.routes {
		e.Add(r.Method, r.EchoPath(), r.Handler)
		if r.Method == http.MethodGet {
			e.Add(http.MethodHead, r.EchoPath(), r.Handler)
		}
	}
	return e
}

// startLoops runs the usage and report loops until stop.
func (s *Server) startLoops(loops context.Context, stop context.CancelFunc) {
	s.stop, s.stopped = stop, make(chan struct{})
	go func() {
		defer close(s.stopped)
		var wg sync.WaitGroup
		wg.Go(func() { s.usage.Run(loops, usage.DefaultInterval) })
		wg.Go(func() { s.reports.Run(loops) })
		if s.full {
			wg.Go(func() { s.billing.WarnDev(loops, s.log) })
		}
		wg.Wait()
	}()
}

// Close stops the background loops after a last flush: the usage counts
// still in memory go to the database and pending client error reports to
// the log. Call it after the HTTP server has drained; calling it again
// returns at once (the loops have ended).
func (s *Server) Close() {
	s.stop()
	<-s.stopped
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// ErrorBody is the JSON body of every error answer, named here for the
// fault rig (services/faults), which reads it as server.ErrorBody.
type ErrorBody = wire.ErrorBody

// buildCapabilities builds the capability packages whose rows the route
// table joins, each with the narrow part of the store it uses.
func (s *Server) buildCapabilities(st *store.Store, cfg config.Config) {
	s.ping = ping.New(ping.Deps{Store: st, Jobs: s.jobs, BaseURL: s.baseURL, Now: s.now,
		PingRatePerMinute: cfg.PingRatePerMinute})
	s.started = s.now().UTC().Truncate(time.Second)
	reads := search.Deps{Store: st, PageStaleness: cfg.SearchStaleness, AdmitRead: s.admission.reads.admit,
		AdmitLookup: s.admission.lookups.admit, Title: AppName,
		BaseURL: s.baseURL, Full: s.full, Now: s.now, Started: s.started, Log: s.log}
	if st != nil {
		reads.Written = st.BundlesWritten
	}
	s.search = search.New(reads)
	s.discovery = discovery.New(discovery.Deps{BaseURL: s.baseURL, Full: s.full, Build: s.build, Started: s.started,
		SecurityContact: cfg.SecurityContact, MCPRegistryAuth: cfg.MCPRegistryAuth, Payments: s.billing,
		MetricsToken: cfg.MetricsToken})
	s.repoStatus = repostatus.New(st, s.baseURL, s.now)
	s.metrics = metrics.New(st, s.full, cfg.MetricsToken)
	s.metrics.ShowPaymentMode(string(s.billing.Mode()))
	s.contact = contact.New(contact.Deps{Store: st, Jobs: s.jobs, Billing: s.billing,
		Captcha:    captcha.Verifier{URL: cfg.Contact.CaptchaURL, Secret: cfg.Contact.CaptchaSecret},
		Configured: cfg.Contact.MailConfigured() && cfg.Contact.CaptchaConfigured(), Now: s.now})
	s.vitrine = vitrine.New(vitrine.Deps{Store: st, BaseURL: s.baseURL, Now: s.now,
		MetricsToken: cfg.MetricsToken, Collector: cfg.VitrineCollector})
	s.pages = pages.New(pages.Deps{Store: st, Search: s.search, RepoStatus: s.repoStatus, Docs: s.discovery, Site: s.web,
		BaseURL: s.baseURL, Full: s.full, Started: s.started,
		Credit: pages.Credit{PackagesUSD: billing.CreditPackagesUSD, Selling: func() bool {
			_, ok := s.billing.PayTo()
			return ok
		}}})
	s.partners = partners.New(partners.Deps{Offer: s.offer, BaseURL: s.baseURL, Now: s.now, Billing: s.billing,
		Vitrine: s.vitrine, HasRoute: func(method, path string) bool {
			_, ok := s.byPath.Row(method, path)
			return ok
		}})
}
