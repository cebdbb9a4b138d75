// Package vitrine builds the public usage projection of the full variant
// (contract 2.8, GET /api/vitrine) and the operator's documents (4.7:
// operador, painel, cursores) from the usage counters, the measured days
// with their unique visitors, and the index statistics, and publishes them
// through pkg/store. The worker's publish_vitrine job (the "collector")
// runs Publish every hour; the API only reads what was published.
//
// Null and zero: a day is measured when an API process counted usage on it
// or the collector ran on it (usage_days), or, for the counters that
// existed before, when it has any counter row. A counter of a measured day
// without a row is a real 0; any value of a day not measured is null, and
// a window with no measured day is null. Unique visitors and the request
// counts of the reliability block are measured only on usage_days days.
package vitrine

import (
	"time"

	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Contract constants (2.8 and 8).
const (
	// Version is the projection's contract version, v.
	Version = 1
	// Days is how many UTC days dias holds, today last.
	Days = 31
	// StaleAfter is the age past which a publication is stale.
	StaleAfter = 26 * time.Hour
)

// Input is what one publication reads, gathered by Publish.
type Input struct {
	Now     time.Time
	Product string
	Name    string
	BaseURL string // PUBLIC_BASE_URL, for apoio's links
	Build   string // the collector's published commit
	// Counts are the usage counters of the last Days days: day
	// (YYYY-MM-DD) to metric to n.
	Counts map[string]map[string]int64
	// Measured are the measured days (usage_days) with their distinct
	// visitors.
	Measured map[string]int64
	// Since is the first day anything was counted; nil when never.
	Since *time.Time
	Stats wire.IndexStats
	// Accounts, when not nil, are the accounts and live API keys.
	Accounts *Accounts
}

// Accounts are the full variant's account figures.
type Accounts struct {
	Total    int64
	LiveKeys int64
}

// Projection is the published document of GET /api/vitrine (rounded) and
// of the operator's operador (exact).
type Projection struct {
	V           int            `json:"v"`
	Product     string         `json:"produto"`
	Published   bool           `json:"publicado"`
	UpdatedAt   *string        `json:"atualizado_em"`
	Stale       bool           `json:"stale"`
	Name        string         `json:"nome"`
	Since       *string        `json:"desde"`
	TimeZone    string         `json:"fuso"`
	Today       Day            `json:"hoje"`
	Days        []Day          `json:"dias"`
	Windows     Windows        `json:"janelas"`
	Visitors    Visitors       `json:"visitantes"`
	People      *struct{}      `json:"pessoas"` // no web analytics: always null
	Agents      Agents         `json:"agentes"`
	Surfaces    Surfaces       `json:"superficies"`
	MCP         MCP            `json:"mcp"`
	Usage       Usage          `json:"uso"`
	Accounts    *AccountCounts `json:"contas"`
	Reliability Reliability    `json:"confiabilidade"`
	Catalog     *Catalog       `json:"catalogo"`
	Support     Support        `json:"apoio"`
}

// Day is one UTC day (an entry of dias, and hoje).
type Day struct {
	Date     string `json:"dia"`
	Pages    *int64 `json:"paginas"`    // page views of the site
	API      *int64 `json:"api"`        // API calls
	APIAI    *int64 `json:"api_ia"`     // of which by AI agents
	Machine  *int64 `json:"maquina"`    // of which by other programs
	Visitors *int64 `json:"visitantes"` // distinct visitors of the day
	Usage    *int64 `json:"uso"`        // every counted use: pages, documents, API, MCP
}

// WindowSum sums the measured days of a window.
type WindowSum struct {
	Pages        *int64 `json:"paginas"`
	API          *int64 `json:"api"`
	APIAI        *int64 `json:"api_ia"`
	Machine      *int64 `json:"maquina"`
	Visitors     *int64 `json:"visitantes"` // sum of daily distinct visitors (visitor-days)
	Usage        *int64 `json:"uso"`
	MeasuredDays int    `json:"dias_medidos"`
}

// Windows (janelas) are the 7- and 30-day sums, today included.
type Windows struct {
	D7  WindowSum `json:"d7"`
	D30 WindowSum `json:"d30"`
}

// Visitors (visitantes) are the unique visitors over 7 days.
type Visitors struct {
	Today        *int64 `json:"hoje"`
	D7           *int64 `json:"d7"`           // sum of the 7 days' distinct visitors
	MeanPerDay7d *int64 `json:"media_dia_7d"` // their mean per measured day
	MeasuredDays int    `json:"dias_medidos"`
	Definition   string `json:"definicao"`
}

// VisitorDefinition says what a visitor is, in the projection itself.
const VisitorDefinition = "Distinct (client address, browser family) pairs per UTC day among browser requests to the site's pages and POST /api/visit; IPv6 by /64; stored only as a hash under a salt discarded with the day. d7 sums the days: a person returning on two days counts twice."

// Agents (agentes) is the use by programs.
type Agents struct {
	APIAI7d    *int64   `json:"api_ia_7d"`
	APIAI30d   *int64   `json:"api_ia_30d"`
	Machine7d  *int64   `json:"maquina_7d"`
	Machine30d *int64   `json:"maquina_30d"`
	AIShare7d  *float64 `json:"parcela_ia_7d"` // share of API calls by AI agents
}

// Surfaces (superficies) are the 30-day uses of each surface.
type Surfaces struct {
	Pages     *int64 `json:"paginas"`
	Documents *int64 `json:"documentos"`
	API       *int64 `json:"api"`
	MCP       *int64 `json:"mcp"`
	Visits    *int64 `json:"visitas"` // POST /api/visit
}

// MCP is the use of the MCP server.
type MCP struct {
	Requests7d   *int64 `json:"pedidos_7d"`
	Requests30d  *int64 `json:"pedidos_30d"`
	ToolCalls7d  *int64 `json:"ferramentas_7d"`
	ToolCalls30d *int64 `json:"ferramentas_30d"`
}

// Usage (uso) is every counted use.
type Usage struct {
	Today *int64 `json:"hoje"`
	D7    *int64 `json:"d7"`
	D30   *int64 `json:"d30"`
}

// AccountCounts (contas) are the account figures.
type AccountCounts struct {
	Total    int64 `json:"total"`
	LiveKeys int64 `json:"chaves_ativas"`
}

// Reliability (confiabilidade) is the share of requests answered without
// a 5xx over 7 days, and the collector's build.
type Reliability struct {
	No5xxShare7d *float64 `json:"sem_5xx_7d"`
	Requests7d   *int64   `json:"pedidos_7d"`
	Errors5xx7d  *int64   `json:"erros_5xx_7d"`
	Build        string   `json:"build"`
}

// Catalog (catalogo) is the index from its statistics.
type Catalog struct {
	Bundles    int64   `json:"bundles"`
	CodeHost   int64   `json:"code_host"`
	Domain     int64   `json:"domain"`
	LastUpdate *string `json:"ultima_atualizacao"`
}

// Support (apoio) says where to support the service.
type Support struct {
	Partners string `json:"parcerias"`
	Contact  string `json:"contato"`
	Credit   string `json:"credito"`
	Pricing  string `json:"precos"`
}

// builder computes with or without rounding.
type builder struct {
	in    Input
	round bool
	today time.Time
}

// Build computes the projection of in: rounded to two significant digits
// (the public one) or exact (the operator's).
func Build(in Input, round bool) Projection {
	b := builder{in: in, round: round, today: in.Now.UTC().Truncate(24 * time.Hour)}
	at := in.Now.UTC().Format(time.RFC3339)
	p := Projection{
		V: Version, Product: in.Product, Published: true, UpdatedAt: &at, Name: in.Name, TimeZone: "UTC",
		Days: make([]Day, 0, Days),
	}
	if in.Since != nil {
		d := in.Since.UTC().Format(time.DateOnly)
		p.Since = &d
	}
	for i := Days - 1; i >= 0; i-- {
		p.Days = append(p.Days, b.day(b.today.AddDate(0, 0, -i)))
	}
	p.Today = p.Days[len(p.Days)-1]
	p.Windows = Windows{D7: b.windowSum(7), D30: b.windowSum(30)}

	vis7, visDays := b.sumVisitors(7)
	p.Visitors = Visitors{Today: p.Today.Visitors, D7: b.r(vis7), MeasuredDays: visDays, Definition: VisitorDefinition}
	if vis7 != nil && visDays > 0 {
		mean := (*vis7 + int64(visDays)/2) / int64(visDays)
		p.Visitors.MeanPerDay7d = b.r(&mean)
	}

	ai7, api7 := b.sum(usage.APIAI, 7), b.sum(usage.API, 7)
	p.Agents = Agents{APIAI7d: b.r(ai7), APIAI30d: b.r(b.sum(usage.APIAI, 30)),
		Machine7d: b.r(b.sum(usage.APIMachine, 7)), Machine30d: b.r(b.sum(usage.APIMachine, 30))}
	if ai7 != nil && api7 != nil && *api7 > 0 {
		share := float64(*ai7) / float64(*api7)
		if round {
			share = round2Float(share)
		}
		p.Agents.AIShare7d = &share
	}
	p.Surfaces = Surfaces{Pages: b.r(b.sum(usage.Page, 30)), Documents: b.r(b.sum(usage.Doc, 30)),
		API: b.r(b.sum(usage.API, 30)), MCP: b.r(b.sum(usage.MCP, 30)), Visits: b.r(b.sum(usage.Visit, 30))}
	p.MCP = MCP{Requests7d: b.r(b.sum(usage.MCP, 7)), Requests30d: b.r(b.sum(usage.MCP, 30)),
		ToolCalls7d: b.r(b.sum(usage.MCPTool, 7)), ToolCalls30d: b.r(b.sum(usage.MCPTool, 30))}
	p.Usage = Usage{Today: p.Today.Usage, D7: p.Windows.D7.Usage, D30: p.Windows.D30.Usage}
	if in.Accounts != nil {
		p.Accounts = &AccountCounts{Total: b.n(in.Accounts.Total), LiveKeys: b.n(in.Accounts.LiveKeys)}
	}
	p.Reliability = b.reliability()
	p.Catalog = b.catalog()
	p.Support = Support{Partners: in.BaseURL + "/api/partners", Contact: in.BaseURL + "/api/contact",
		Credit: in.BaseURL + "/api/credito", Pricing: in.BaseURL + "/api/pricing"}
	return p
}

// n rounds when building the public projection.
func (b builder) n(v int64) int64 {
	if b.round {
		return Round2(v)
	}
	return v
}

// r rounds a nullable value.
func (b builder) r(v *int64) *int64 {
	if v == nil {
		return nil
	}
	x := b.n(*v)
	return &x
}

func key(d time.Time) string { return d.Format(time.DateOnly) }

// measured reports whether a day's counters were measured.
func (b builder) measured(d time.Time) bool {
	_, ok := b.in.Measured[key(d)]
	return ok || len(b.in.Counts[key(d)]) > 0
}

// metric is a counter of a day: nil when the day was not measured.
func (b builder) metric(d time.Time, metric string) *int64 {
	if !b.measured(d) {
		return nil
	}
	n := b.in.Counts[key(d)][metric]
	return &n
}

// usage is a day's every counted use.
func (b builder) usage(d time.Time) *int64 {
	if !b.measured(d) {
		return nil
	}
	c := b.in.Counts[key(d)]
	n := c[usage.Page] + c[usage.Doc] + c[usage.API] + c[usage.MCP]
	return &n
}

// visitors are a day's distinct visitors: nil when not measured.
func (b builder) visitors(d time.Time) *int64 {
	n, ok := b.in.Measured[key(d)]
	if !ok {
		return nil
	}
	return &n
}

func (b builder) day(d time.Time) Day {
	return Day{Date: key(d), Pages: b.r(b.metric(d, usage.Page)), API: b.r(b.metric(d, usage.API)),
		APIAI: b.r(b.metric(d, usage.APIAI)), Machine: b.r(b.metric(d, usage.APIMachine)),
		Visitors: b.r(b.visitors(d)), Usage: b.r(b.usage(d))}
}

// window calls f for each of the last days days, today included, and sums
// the non-nil values: nil when every one is nil.
func (b builder) window(days int, f func(time.Time) *int64) (*int64, int) {
	var sum *int64
	measured := 0
	for i := range days {
		v := f(b.today.AddDate(0, 0, -i))
		if v == nil {
			continue
		}
		measured++
		if sum == nil {
			sum = new(int64)
		}
		*sum += *v
	}
	return sum, measured
}

// sum is a counter's sum over the last days days (exact).
func (b builder) sum(metric string, days int) *int64 {
	s, _ := b.window(days, func(d time.Time) *int64 { return b.metric(d, metric) })
	return s
}

func (b builder) sumVisitors(days int) (*int64, int) { return b.window(days, b.visitors) }

func (b builder) windowSum(days int) WindowSum {
	counted, measured := b.window(days, b.usage)
	vis, _ := b.sumVisitors(days)
	return WindowSum{Pages: b.r(b.sum(usage.Page, days)), API: b.r(b.sum(usage.API, days)),
		APIAI: b.r(b.sum(usage.APIAI, days)), Machine: b.r(b.sum(usage.APIMachine, days)),
		Visitors: b.r(vis), Usage: b.r(counted), MeasuredDays: measured}
}

// reliability is measured on the usage_days days only (the request
// counters came with them).
func (b builder) reliability() Reliability {
	c := Reliability{Build: b.in.Build}
	count := func(metric string) func(time.Time) *int64 {
		return func(d time.Time) *int64 {
			if _, ok := b.in.Measured[key(d)]; !ok {
				return nil
			}
			n := b.in.Counts[key(d)][metric]
			return &n
		}
	}
	total, _ := b.window(7, count(usage.Requests))
	bad, _ := b.window(7, count(usage.Requests5xx))
	c.Requests7d, c.Errors5xx7d = b.r(total), b.r(bad)
	if total != nil && *total > 0 {
		var share float64
		if b.round {
			share = complementShare(*bad, *total)
		} else {
			share = 1 - float64(*bad)/float64(*total)
		}
		c.No5xxShare7d = &share
	}
	return c
}

func (b builder) catalog() *Catalog {
	st := b.in.Stats
	c := &Catalog{Bundles: b.n(st.Total), CodeHost: b.n(st.ByOrigin[wire.OriginCodeHost]),
		Domain: b.n(st.ByOrigin[wire.OriginDomain])}
	if st.LastUpdate != nil {
		s := st.LastUpdate.UTC().Format(time.RFC3339)
		c.LastUpdate = &s
	}
	return c
}
