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
	Produto string
	Nome    string
	BaseURL string // PUBLIC_BASE_URL, for apoio's links
	Build   string // the collector's published commit
	// Counts are the usage counters of the last Days days: day
	// (YYYY-MM-DD) to metric to n.
	Counts map[string]map[string]int64
	// Measured are the measured days (usage_days) with their distinct
	// visitors.
	Measured map[string]int64
	// Desde is the first day anything was counted; nil when never.
	Desde *time.Time
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
	V              int            `json:"v"`
	Produto        string         `json:"produto"`
	Publicado      bool           `json:"publicado"`
	AtualizadoEm   *string        `json:"atualizado_em"`
	Stale          bool           `json:"stale"`
	Nome           string         `json:"nome"`
	Desde          *string        `json:"desde"`
	Fuso           string         `json:"fuso"`
	Hoje           Dia            `json:"hoje"`
	Dias           []Dia          `json:"dias"`
	Janelas        Janelas        `json:"janelas"`
	Visitantes     Visitantes     `json:"visitantes"`
	Pessoas        *struct{}      `json:"pessoas"` // no web analytics: always null
	Agentes        Agentes        `json:"agentes"`
	Superficies    Superficies    `json:"superficies"`
	MCP            MCP            `json:"mcp"`
	Uso            Uso            `json:"uso"`
	Contas         *Contas        `json:"contas"`
	Confiabilidade Confiabilidade `json:"confiabilidade"`
	Catalogo       *Catalogo      `json:"catalogo"`
	Apoio          Apoio          `json:"apoio"`
}

// Dia is one UTC day.
type Dia struct {
	Dia        string `json:"dia"`
	Paginas    *int64 `json:"paginas"`    // page views of the site
	API        *int64 `json:"api"`        // API calls
	APIIA      *int64 `json:"api_ia"`     // of which by AI agents
	Maquina    *int64 `json:"maquina"`    // of which by other programs
	Visitantes *int64 `json:"visitantes"` // distinct visitors of the day
	Uso        *int64 `json:"uso"`        // every counted use: pages, documents, API, MCP
}

// Soma sums the measured days of a window.
type Soma struct {
	Paginas     *int64 `json:"paginas"`
	API         *int64 `json:"api"`
	APIIA       *int64 `json:"api_ia"`
	Maquina     *int64 `json:"maquina"`
	Visitantes  *int64 `json:"visitantes"` // sum of daily distinct visitors (visitor-days)
	Uso         *int64 `json:"uso"`
	DiasMedidos int    `json:"dias_medidos"`
}

// Janelas are the 7- and 30-day sums, today included.
type Janelas struct {
	D7  Soma `json:"d7"`
	D30 Soma `json:"d30"`
}

// Visitantes are the unique visitors over 7 days.
type Visitantes struct {
	Hoje        *int64 `json:"hoje"`
	D7          *int64 `json:"d7"`           // sum of the 7 days' distinct visitors
	MediaDia7d  *int64 `json:"media_dia_7d"` // their mean per measured day
	DiasMedidos int    `json:"dias_medidos"`
	Definicao   string `json:"definicao"`
}

// VisitorDefinition says what a visitor is, in the projection itself.
const VisitorDefinition = "Distinct (client address, browser family) pairs per UTC day among browser requests to the site's pages and POST /api/visit; IPv6 by /64; stored only as a hash under a salt discarded with the day. d7 sums the days: a person returning on two days counts twice."

// Agentes is the use by programs.
type Agentes struct {
	APIIA7d     *int64   `json:"api_ia_7d"`
	APIIA30d    *int64   `json:"api_ia_30d"`
	Maquina7d   *int64   `json:"maquina_7d"`
	Maquina30d  *int64   `json:"maquina_30d"`
	ParcelaIA7d *float64 `json:"parcela_ia_7d"` // share of API calls by AI agents
}

// Superficies are the 30-day uses of each surface.
type Superficies struct {
	Paginas    *int64 `json:"paginas"`
	Documentos *int64 `json:"documentos"`
	API        *int64 `json:"api"`
	MCP        *int64 `json:"mcp"`
	Visitas    *int64 `json:"visitas"` // POST /api/visit
}

// MCP is the use of the MCP server.
type MCP struct {
	Pedidos7d      *int64 `json:"pedidos_7d"`
	Pedidos30d     *int64 `json:"pedidos_30d"`
	Ferramentas7d  *int64 `json:"ferramentas_7d"`
	Ferramentas30d *int64 `json:"ferramentas_30d"`
}

// Uso is every counted use.
type Uso struct {
	Hoje *int64 `json:"hoje"`
	D7   *int64 `json:"d7"`
	D30  *int64 `json:"d30"`
}

// Contas are the account figures.
type Contas struct {
	Total        int64 `json:"total"`
	ChavesAtivas int64 `json:"chaves_ativas"`
}

// Confiabilidade is the share of requests answered without a 5xx over 7
// days, and the collector's build.
type Confiabilidade struct {
	Sem5xx7d   *float64 `json:"sem_5xx_7d"`
	Pedidos7d  *int64   `json:"pedidos_7d"`
	Erros5xx7d *int64   `json:"erros_5xx_7d"`
	Build      string   `json:"build"`
}

// Catalogo is the index from its statistics.
type Catalogo struct {
	Bundles           int64   `json:"bundles"`
	CodeHost          int64   `json:"code_host"`
	Domain            int64   `json:"domain"`
	UltimaAtualizacao *string `json:"ultima_atualizacao"`
}

// Apoio says where to support the service.
type Apoio struct {
	Parcerias string `json:"parcerias"`
	Contato   string `json:"contato"`
	Credito   string `json:"credito"`
	Precos    string `json:"precos"`
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
		V: Version, Produto: in.Produto, Publicado: true, AtualizadoEm: &at, Nome: in.Nome, Fuso: "UTC",
		Dias: make([]Dia, 0, Days),
	}
	if in.Desde != nil {
		d := in.Desde.UTC().Format(time.DateOnly)
		p.Desde = &d
	}
	for i := Days - 1; i >= 0; i-- {
		p.Dias = append(p.Dias, b.dia(b.today.AddDate(0, 0, -i)))
	}
	p.Hoje = p.Dias[len(p.Dias)-1]
	p.Janelas = Janelas{D7: b.soma(7), D30: b.soma(30)}

	vis7, visDays := b.sumVisitors(7)
	p.Visitantes = Visitantes{Hoje: p.Hoje.Visitantes, D7: b.r(vis7), DiasMedidos: visDays, Definicao: VisitorDefinition}
	if vis7 != nil && visDays > 0 {
		mean := (*vis7 + int64(visDays)/2) / int64(visDays)
		p.Visitantes.MediaDia7d = b.r(&mean)
	}

	ai7, api7 := b.sum(usage.APIAI, 7), b.sum(usage.API, 7)
	p.Agentes = Agentes{APIIA7d: b.r(ai7), APIIA30d: b.r(b.sum(usage.APIAI, 30)),
		Maquina7d: b.r(b.sum(usage.APIMachine, 7)), Maquina30d: b.r(b.sum(usage.APIMachine, 30))}
	if ai7 != nil && api7 != nil && *api7 > 0 {
		share := float64(*ai7) / float64(*api7)
		if round {
			share = round2Float(share)
		}
		p.Agentes.ParcelaIA7d = &share
	}
	p.Superficies = Superficies{Paginas: b.r(b.sum(usage.Page, 30)), Documentos: b.r(b.sum(usage.Doc, 30)),
		API: b.r(b.sum(usage.API, 30)), MCP: b.r(b.sum(usage.MCP, 30)), Visitas: b.r(b.sum(usage.Visit, 30))}
	p.MCP = MCP{Pedidos7d: b.r(b.sum(usage.MCP, 7)), Pedidos30d: b.r(b.sum(usage.MCP, 30)),
		Ferramentas7d: b.r(b.sum(usage.MCPTool, 7)), Ferramentas30d: b.r(b.sum(usage.MCPTool, 30))}
	p.Uso = Uso{Hoje: p.Hoje.Uso, D7: p.Janelas.D7.Uso, D30: p.Janelas.D30.Uso}
	if in.Accounts != nil {
		p.Contas = &Contas{Total: b.n(in.Accounts.Total), ChavesAtivas: b.n(in.Accounts.LiveKeys)}
	}
	p.Confiabilidade = b.confiabilidade()
	p.Catalogo = b.catalogo()
	p.Apoio = Apoio{Parcerias: in.BaseURL + "/api/partners", Contato: in.BaseURL + "/api/contact",
		Credito: in.BaseURL + "/api/credito", Precos: in.BaseURL + "/api/pricing"}
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

// uso is a day's every counted use.
func (b builder) uso(d time.Time) *int64 {
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

func (b builder) dia(d time.Time) Dia {
	return Dia{Dia: key(d), Paginas: b.r(b.metric(d, usage.Page)), API: b.r(b.metric(d, usage.API)),
		APIIA: b.r(b.metric(d, usage.APIAI)), Maquina: b.r(b.metric(d, usage.APIMachine)),
		Visitantes: b.r(b.visitors(d)), Uso: b.r(b.uso(d))}
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

func (b builder) soma(days int) Soma {
	uso, measured := b.window(days, b.uso)
	vis, _ := b.sumVisitors(days)
	return Soma{Paginas: b.r(b.sum(usage.Page, days)), API: b.r(b.sum(usage.API, days)),
		APIIA: b.r(b.sum(usage.APIAI, days)), Maquina: b.r(b.sum(usage.APIMachine, days)),
		Visitantes: b.r(vis), Uso: b.r(uso), DiasMedidos: measured}
}

// confiabilidade is measured on the usage_days days only (the request
// counters came with them).
func (b builder) confiabilidade() Confiabilidade {
	c := Confiabilidade{Build: b.in.Build}
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
	c.Pedidos7d, c.Erros5xx7d = b.r(total), b.r(bad)
	if total != nil && *total > 0 {
		var share float64
		if b.round {
			share = complementShare(*bad, *total)
		} else {
			share = 1 - float64(*bad)/float64(*total)
		}
		c.Sem5xx7d = &share
	}
	return c
}

func (b builder) catalogo() *Catalogo {
	st := b.in.Stats
	c := &Catalogo{Bundles: b.n(st.Total), CodeHost: b.n(st.ByOrigin[wire.OriginCodeHost]),
		Domain: b.n(st.ByOrigin[wire.OriginDomain])}
	if st.LastUpdate != nil {
		s := st.LastUpdate.UTC().Format(time.RFC3339)
		c.UltimaAtualizacao = &s
	}
	return c
}
