// Package metrics answers GET /api/metrics (contract 4.4 and 5): the
// public usage numbers of the last days, and for the operator
// (Authorization: Bearer <METRICS_TOKEN>) the finance block.
package metrics

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/ttlcache"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/operator"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Store is what the metrics read.
type Store interface {
	Usage(ctx context.Context, first, last time.Time) ([]store.UsageCount, error)
	AccountTotals(ctx context.Context, product string) (store.AccountTotals, error)
	Finance(ctx context.Context) (store.Finance, error)
}

// Service answers GET /api/metrics.
type Service struct {
	store        Store
	full         bool   // the full variant: accounts and finance are read
	metricsToken string // the operator token
	paymentMode  string // X402_MODE, shown in the finance block (finance.go)
	cache        *ttlcache.Cache[Metrics]
}

// New builds the route on st.
func New(st Store, full bool, metricsToken string) *Service {
	return &Service{store: st, full: full, metricsToken: metricsToken, cache: ttlcache.New[Metrics](metricsTTL, nil)}
}

// Forget drops the cached reading, so the next answer reads the counters.
func (s *Service) Forget() { s.cache.Forget() }

// Routes is the route's row.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/metrics", Summary: "Public usage numbers; with the operator token, the finance block",
			Handler: s.getMetrics, Usage: route.NotCounted, Credentials: route.TakesOperatorToken},
	}
}

// Days is how many UTC days, today included, the answer covers.
const Days = 30

// metricsTTL is how long one reading of the counters answers every caller:
// a public route must not turn each request into a database read. Counts
// reach the database about once a second anyway (pkg/usage).
const metricsTTL = time.Second

// Metrics is the answer of GET /api/metrics.
type Metrics struct {
	App         string       `json:"app"`
	Today       string       `json:"today"`
	TodayVisits int64        `json:"today_visits"`
	Days        []MetricsDay `json:"days"`
	Usage       UsageTotals  `json:"usage"`
	Accounts    Accounts     `json:"accounts"`
	Payments    *Payments    `json:"payments,omitempty"`
}

// MetricsDay is one UTC day of counts, oldest first.
type MetricsDay struct {
	Day        string `json:"day"`
	Visits     int64  `json:"visits"`
	Pages      int64  `json:"pages"`
	Docs       int64  `json:"docs"`
	API        int64  `json:"api"`
	APIAI      int64  `json:"api_ai"`
	APIMachine int64  `json:"api_machine"`
	MCP        int64  `json:"mcp"`
	MCPTools   int64  `json:"mcp_tools"`
}

// UsageTotals sums the days of the answer, per product surface.
type UsageTotals struct {
	OKF OKFUsage `json:"okf"`
	MCP MCPUsage `json:"mcp"`
}

// OKFUsage is the use of the site, the documents and the REST API.
type OKFUsage struct {
	Visits     int64 `json:"visits"`
	Pages      int64 `json:"pages"`
	Docs       int64 `json:"docs"`
	API        int64 `json:"api"`
	APIAI      int64 `json:"api_ai"`
	APIMachine int64 `json:"api_machine"`
}

// MCPUsage is the use of the MCP server.
type MCPUsage struct {
	Requests  int64 `json:"requests"`
	ToolCalls int64 `json:"tool_calls"`
}

// Accounts counts accounts; a base deployment has none ({enabled: false,
// total: 0}). The full variant counts them (finance.go).
type Accounts struct {
	Enabled  bool   `json:"enabled"`
	Total    int64  `json:"total"`
	KeysLive *int64 `json:"keys_live,omitempty"` // full variant: live API keys of this product
}

// Payments is the operator's finance block, in integer micro-dollars. No
// route of a base deployment takes money, so there every figure is zero;
// the full variant sums its payment and credit rows (finance.go).
type Payments struct {
	Currency            string `json:"currency"`
	ReceivedMicros      int64  `json:"received_micros"`
	ReceivedUSD         string `json:"received_usd"`
	Payments            int64  `json:"payments"`
	CreditSoldMicros    int64  `json:"credit_sold_micros"`
	CreditBalanceMicros int64  `json:"credit_balance_micros"`
	CreditSpentMicros   int64  `json:"credit_spent_micros"`
	CreditTokens        int64  `json:"credit_tokens"`
	CreditDebits        int64  `json:"credit_debits"`
	SimulatedPayments   int64  `json:"simulated_payments"`
	PendingPayments     int64  `json:"pending_payments"`
	PendingMicros       int64  `json:"pending_micros"`
	FailedPayments      int64  `json:"failed_payments"`
	// The payments left to finish (metrics/finance.go).
	UnknownPayments      int64   `json:"unknown_payments"`
	PendingOldestSeconds *int64  `json:"pending_oldest_seconds"`
	RefundedPayments     int64   `json:"refunded_payments"`
	Mode                 *string `json:"mode"`
}

// getMetrics answers GET /api/metrics. A request without Authorization is
// anonymous; one with a bearer token must carry the operator token (401
// otherwise), and a token sent to a service that has none is a 503.
func (s *Service) getMetrics(c echo.Context) error {
	isOperator, err := operator.Check(s.metricsToken, c.Request().Header.Get(echo.HeaderAuthorization))
	if err != nil {
		return err
	}
	m, err := s.cache.Get(c.Request().Context(), func(ctx context.Context) (Metrics, error) {
		return s.Read(ctx, time.Now())
	})
	if err != nil {
		return err
	}
	if isOperator {
		if m.Payments, err = s.payments(c.Request().Context()); err != nil {
			return err
		}
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return respond.JSON(c, http.StatusOK, m)
}

// Read reads the counters of the last Days UTC days up to now.
func (s *Service) Read(ctx context.Context, now time.Time) (Metrics, error) {
	today := now.UTC().Truncate(24 * time.Hour)
	first := today.AddDate(0, 0, -(Days - 1))
	rows, err := s.store.Usage(ctx, first, today)
	if err != nil {
		return Metrics{}, err
	}
	byDay := map[string]map[string]int64{}
	for _, r := range rows {
		d := r.Day.Format(time.DateOnly)
		if byDay[d] == nil {
			byDay[d] = map[string]int64{}
		}
		byDay[d][r.Metric] = r.N
	}
	m := Metrics{App: wire.ProductID, Today: today.Format(time.DateOnly), Days: make([]MetricsDay, 0, Days)}
	for d := first; !d.After(today); d = d.AddDate(0, 0, 1) {
		n := byDay[d.Format(time.DateOnly)]
		day := MetricsDay{
			Day: d.Format(time.DateOnly), Visits: n[usage.Visit], Pages: n[usage.Page], Docs: n[usage.Doc],
			API: n[usage.API], APIAI: n[usage.APIAI], APIMachine: n[usage.APIMachine],
			MCP: n[usage.MCP], MCPTools: n[usage.MCPTool],
		}
		m.Days = append(m.Days, day)
		u := &m.Usage
		u.OKF.Visits += day.Visits
		u.OKF.Pages += day.Pages
		u.OKF.Docs += day.Docs
		u.OKF.API += day.API
		u.OKF.APIAI += day.APIAI
		u.OKF.APIMachine += day.APIMachine
		u.MCP.Requests += day.MCP
		u.MCP.ToolCalls += day.MCPTools
	}
	m.TodayVisits = m.Days[len(m.Days)-1].Visits
	if m.Accounts, err = s.accountTotals(ctx); err != nil {
		return Metrics{}, err
	}
	return m, nil
}
