package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/logging"
	"github.com/okfindex/okf-index/pkg/promreg"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// requestTimeout bounds the database work of one request; past it the
// request answers 503 unavailable (Options.RequestTimeout).
const requestTimeout = 10 * time.Second

// corsMaxAge is how long a browser may cache a preflight answer, in seconds.
const corsMaxAge = "86400"

// middlewares returns the chain every request goes through, outermost first:
// nosniff, request id, request metrics (when reg is set), request log, panic
// recovery, CORS, the request-head limit, request timeout. The metrics sit
// outside the request log, which hands errors to the error handler, so they
// count the status the client got. The request log reads each route's row
// in routes.
func middlewares(log *slog.Logger, reg prometheus.Registerer, routes route.ByPath, limit time.Duration) []echo.MiddlewareFunc {
	chain := []echo.MiddlewareFunc{
		noSniff,
		dropForeignRequestID,
		middleware.RequestIDWithConfig(middleware.RequestIDConfig{RequestIDHandler: requestIDToContext}),
	}
	if reg != nil {
		chain = append(chain, newHTTPMetrics(reg).middleware)
	}
	return append(chain,
		requestLog(log, routes),
		middleware.RecoverWithConfig(middleware.RecoverConfig{
			DisableStackAll:     true,
			DisableErrorHandler: true, // return the error to requestLog, which handles and logs it once
			LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
				return fmt.Errorf("panic: %w\n%s", err, stack)
			},
		}),
		cors(routes),
		limitRequestHead,
		timeout(limit),
	)
}

// noSniff tells browsers to take every answer as the type it says (JSON,
// markdown, Atom, OpenSearch, errors included), never to guess another
// from its bytes: a card's text rendered as HTML is how stored XSS begins.
func noSniff(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("X-Content-Type-Options", "nosniff")
		return next(c)
	}
}

// requestIDShape is a request id the service accepts from a client (a
// proxy's or a load balancer's): short, and safe to log and echo.
var requestIDShape = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// dropForeignRequestID removes an incoming X-Request-Id of any other shape,
// so the service makes its own: a client cannot write what it likes into
// every log line of its request.
func dropForeignRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header
		if id := h.Get(echo.HeaderXRequestID); id != "" && !requestIDShape.MatchString(id) {
			h.Del(echo.HeaderXRequestID)
		}
		return next(c)
	}
}

// requestIDToContext puts the request id in the request's context, where
// the log handler of pkg/logging finds it: every line a handler logs with
// the request's context carries request_id.
func requestIDToContext(c echo.Context, id string) {
	c.SetRequest(c.Request().WithContext(logging.WithRequestID(c.Request().Context(), id)))
}

// requestLog logs one line per request with its id, route, status and
// latency; failures of the service are logged at error level with their
// cause. It hands errors to the error handler first, so the logged status is
// the one the client got. It logs neither the client's address nor its
// User-Agent, nor the query string of a route whose row says LogPathOnly.
func requestLog(log *slog.Logger, routes route.ByPath) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:  true,
		LogRequestID: true,
		LogMethod:    true,
		LogURI:       true,
		LogRoutePath: true,
		LogStatus:    true,
		LogLatency:   true,
		LogError:     true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			uri := v.URI
			if routes.LogPathOnly(v.RoutePath) {
				uri = c.Request().URL.Path
			}
			attrs := []slog.Attr{
				slog.String("request_id", v.RequestID),
				slog.String("method", v.Method),
				slog.String("uri", uri),
				slog.String("route", v.RoutePath),
				slog.Int("status", v.Status),
				slog.Float64("latency_ms", float64(v.Latency.Microseconds())/1000),
			}
			level := slog.LevelInfo
			if v.Error != nil {
				if _, _, internal := apierror.Response(v.Error); internal {
					level = slog.LevelError
					attrs = append(attrs, apierror.LogAttrs(v.Error)...)
				}
			}
			log.LogAttrs(c.Request().Context(), level, "request", attrs...)
			return nil
		},
	})
}

// cors answers every request with Access-Control-Allow-Origin: * (contract
// section 1: every agent route), whether or not it carries an Origin header,
// and answers the preflight OPTIONS of an existing path with 204 and the
// methods the path allows. An OPTIONS to an unknown path is a 404 like any
// other method. (Echo's CORS middleware sets the header only when the
// request has an Origin, which agents do not send.) A session route (its
// row says Session) gets no CORS header at all: its preflight answers 204
// with Allow only, which no browser takes as a grant.
func cors(routes route.ByPath) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if routes.Session(c.Path()) {
				return sessionPreflight(c, next)
			}
			return allowAnyOrigin(c, next)
		}
	}
}

// sessionPreflight answers the OPTIONS of a session route with 204 and its
// Allow header, without CORS headers.
func sessionPreflight(c echo.Context, next echo.HandlerFunc) error {
	allow, _ := c.Get(echo.ContextKeyHeaderAllow).(string)
	if c.Request().Method != http.MethodOptions || allow == "" {
		return next(c)
	}
	c.Response().Header().Set(echo.HeaderAllow, allow)
	return c.NoContent(http.StatusNoContent)
}

// allowAnyOrigin is the CORS of every other route.
func allowAnyOrigin(c echo.Context, next echo.HandlerFunc) error {
	h := c.Response().Header()
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	if c.Request().Method != http.MethodOptions {
		return next(c)
	}
	// The router stores the methods of a path that exists but has no
	// OPTIONS route; an empty value means the path is unknown.
	allow, _ := c.Get(echo.ContextKeyHeaderAllow).(string)
	if allow == "" {
		return next(c)
	}
	h.Set(echo.HeaderAllow, allow)
	h.Set(echo.HeaderAccessControlAllowMethods, allow)
	if req := c.Request().Header.Get(echo.HeaderAccessControlRequestHeaders); req != "" {
		h.Set(echo.HeaderAccessControlAllowHeaders, req)
	} else {
		h.Set(echo.HeaderAccessControlAllowHeaders, "Accept, Content-Type")
	}
	h.Set(echo.HeaderAccessControlMaxAge, corsMaxAge)
	return c.NoContent(http.StatusNoContent)
}

// timeout bounds the request's context by limit.
func timeout(limit time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx, cancel := context.WithTimeout(c.Request().Context(), limit)
			defer cancel()
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// httpMetrics are the request count and latency by route, method and status.
// The route is Echo's route path (/api/bundles/:id), never the URL, and a
// request that matched no route counts as "unmatched", so clients cannot
// create series at will; methods outside the standard set count as "other".
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	routesOnce sync.Once
	routes     map[string]bool // the paths registered on the router
}

// Labels of requests that matched no route, or used an unknown method.
const (
	unmatchedRoute = "unmatched"
	otherMethod    = "other"
)

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	return &httpMetrics{
		requests: promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "okf_http_requests_total",
			Help: "HTTP requests answered, by route, method and status.",
		}, []string{"route", "method", "status"})),
		latency: promreg.Register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "okf_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method", "status"})),
	}
}

func (m *httpMetrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		status := c.Response().Status
		if err != nil && !c.Response().Committed {
			status = http.StatusInternalServerError
			var he *echo.HTTPError
			if errors.As(err, &he) {
				status = he.Code
			}
		}
		route, method := m.route(c), methodLabel(c.Request().Method)
		code := strconv.Itoa(status)
		m.requests.WithLabelValues(route, method, code).Inc()
		m.latency.WithLabelValues(route, method, code).Observe(time.Since(start).Seconds())
		return err
	}
}

// route is the label of c's route. For a URL without a route Echo reports
// the router node it stopped at (a prefix of several routes, or a nearby
// route) with its not-found handler, so a path counts as the route only
// when it is registered and the router did not fall back to not-found. A
// known path with another method (405) keeps its route.
func (m *httpMetrics) route(c echo.Context) string {
	m.routesOnce.Do(func() {
		m.routes = map[string]bool{}
		for _, r := range c.Echo().Routes() {
			m.routes[r.Path] = true
		}
	})
	p := c.Path()
	if !m.routes[p] || reflect.ValueOf(c.Handler()).Pointer() == echoNotFound {
		return unmatchedRoute
	}
	return p
}

// notFound identifies Echo's handler of URLs without a route.
var echoNotFound = reflect.ValueOf(echo.NotFoundHandler).Pointer()

func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return otherMethod
}
