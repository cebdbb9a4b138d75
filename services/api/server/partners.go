package server

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/partners"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// GET /api/partners of the full variant (contract 4.6): the partnership
// offer. The operator's file (PARTNERS_FILE, pkg/partners) gives the
// offer; this file adds what comes from elsewhere: the usage excerpt
// (partnersstats.go), the payment configuration (X402_*), the contact
// route's fields and price, and absolute links from PUBLIC_BASE_URL.
//
// The answer is cached for an hour by clients (Cache-Control) with a
// strong ETag of its bytes; If-None-Match naming it is a 304. The server
// keeps the encoded body for partnersBodyTTL, so a burst of requests
// builds it once, and a sponsor whose term ended or new usage numbers show
// within a minute.

// Caching of GET /api/partners: an hour in clients, a minute here.
const (
	partnersCacheControl = "public, max-age=3600"
	partnersBodyTTL      = time.Minute
)

// partnersPagePath is where the web page of the offer will live; _links.page
// is null until the route table of this variant has that page.
const partnersPagePath = "/parceiros"

// partnersStatus is the contract's only status: information and proposals,
// no activation or charge.
const partnersStatus = "sob_consulta"

// Partners is the answer of GET /api/partners.
type Partners struct {
	Status          string                `json:"status"`
	Produto         string                `json:"produto"`
	Idioma          string                `json:"idioma"`
	Titulo          string                `json:"titulo"`
	Descricao       string                `json:"descricao"`
	Publico         string                `json:"publico"`
	Modalidades     []partners.Modalidade `json:"modalidades"`
	Placements      []partners.Placement  `json:"placements"`
	HouseBundle     PartnersHouseBundle   `json:"house_bundle"`
	Parcerias       []string              `json:"parcerias"`
	CurrentSponsors []partners.Sponsor    `json:"current_sponsors"`
	Stats           any                   `json:"stats"`
	Payment         PartnersPayment       `json:"payment"`
	Contact         PartnersContact       `json:"contact"`
	Politica        map[string]string     `json:"politica"`
	Links           PartnersLinks         `json:"_links"`
}

// PartnersHouseBundle is the house's own OKF bundle.
type PartnersHouseBundle struct {
	Nome      string `json:"nome"`
	Descricao string `json:"descricao"`
	URL       string `json:"url"`
}

// PartnersPayment is how a partner pays: USDC to the configured address on
// the configured network (the x402 configuration of GET /api/billing), or
// the file's alternatives.
type PartnersPayment struct {
	Rede         string   `json:"rede"`
	ChainID      int64    `json:"chain_id"`
	Ativo        bool     `json:"ativo"`
	PayTo        *string  `json:"pay_to"`
	EIP681       *string  `json:"eip681"`
	Alternativas []string `json:"alternativas"`
	Nota         string   `json:"nota"`
}

// PartnersContact is how to write a proposal: POST /api/contact.
type PartnersContact struct {
	Email           *string         `json:"email"`
	FormURL         *string         `json:"form_url"`
	APIURL          string          `json:"api_url"`
	Campos          []string        `json:"campos"`
	CamposProposta  []string        `json:"campos_proposta"`
	PriceAgentUSD   partners.Micros `json:"price_agent_usd"`
	MessageTemplate string          `json:"message_template"`
	Instructions    string          `json:"instructions"`
}

// PartnersLinks are the offer's absolute links.
type PartnersLinks struct {
	Self    string  `json:"self"`
	Stats   string  `json:"stats"`
	Page    *string `json:"page"`
	Contact string  `json:"contact"`
	Casa    string  `json:"casa"`
}

// The fields of POST /api/contact: those every message needs, and the
// proposal's (ContactRequest).
var (
	contactFields         = []string{"name", "email", "message"}
	contactProposalFields = []string{"tipo", "empresa", "site", "orcamento", "espaco", "duracao", "pagamento"}
)

// partnersDocument builds the answer at now.
func (s *Server) partnersDocument(ctx context.Context, now time.Time) (Partners, error) {
	o := s.partners
	stats, err := s.partnersStats(ctx)
	if err != nil {
		return Partners{}, err
	}
	net := s.billing.Network()
	pay := PartnersPayment{Rede: net.Name, ChainID: net.ChainID, Alternativas: o.Payment.Alternativas, Nota: o.Payment.Nota}
	if pay.Alternativas == nil {
		pay.Alternativas = []string{}
	}
	if payTo, ok := s.billing.PayTo(); ok {
		// EIP-681: a USDC transfer to the address; the amount is the
		// proposal's, so it is left to the wallet.
		eip681 := "ethereum:" + net.USDC + "@" + strconv.FormatInt(net.ChainID, 10) + "/transfer?address=" + payTo
		pay.PayTo, pay.EIP681 = &payTo, &eip681
		pay.Ativo = s.billing.Mode() == billing.Live
	}
	links := PartnersLinks{
		Self:    s.baseURL + "/api/partners",
		Stats:   s.baseURL + "/api/vitrine",
		Contact: s.baseURL + "/api/contact",
		Casa:    o.Links.Casa,
	}
	if links.Casa == "" {
		links.Casa = s.baseURL + "/"
	}
	if _, ok := s.byPath.Row(http.MethodGet, partnersPagePath); ok {
		page := s.baseURL + partnersPagePath
		links.Page = &page
	}
	parcerias := o.Parcerias
	if parcerias == nil {
		parcerias = []string{}
	}
	return Partners{
		Status:          partnersStatus,
		Produto:         billing.ProductID,
		Idioma:          o.Idioma,
		Titulo:          o.Titulo,
		Descricao:       o.Descricao,
		Publico:         o.Publico,
		Modalidades:     o.Modalidades,
		Placements:      o.Placements,
		HouseBundle:     PartnersHouseBundle{Nome: o.HouseBundle.Nome, Descricao: o.HouseBundle.Descricao, URL: s.baseURL + "/okf/index.md"},
		Parcerias:       parcerias,
		CurrentSponsors: o.Showing(now),
		Stats:           stats,
		Payment:         pay,
		Contact: PartnersContact{
			Email:           nonEmpty(o.Contact.Email),
			FormURL:         nonEmpty(o.Contact.FormURL),
			APIURL:          s.baseURL + "/api/contact",
			Campos:          contactFields,
			CamposProposta:  contactProposalFields,
			PriceAgentUSD:   partners.Micros(billing.ContactPriceMicros),
			MessageTemplate: o.Contact.MessageTemplate,
			Instructions:    o.Contact.Instructions,
		},
		Politica: o.Politica,
		Links:    links,
	}, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// encodedBody is an answer's bytes and their strong ETag.
type encodedBody struct {
	body       []byte
	validators respond.Validators
}

// partnersCache keeps the encoded answer for partnersBodyTTL. Callers that
// find it stale wait for one of them to build it again (the lock is held
// across the build), so a burst builds once.
type partnersCache struct {
	mu   sync.Mutex
	at   time.Time
	last encodedBody
}

func (pc *partnersCache) get(now time.Time, build func() ([]byte, error)) (encodedBody, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.last.body != nil && now.Sub(pc.at) < partnersBodyTTL && !now.Before(pc.at) {
		return pc.last, nil
	}
	b, err := build()
	if err != nil {
		return encodedBody{}, err
	}
	pc.at, pc.last = now, encodedBody{body: b, validators: respond.StrongValidatorsOf(b)}
	return pc.last, nil
}

// getPartners answers GET /api/partners [full only].
func (s *Server) getPartners(c echo.Context) error {
	now := s.now()
	e, err := s.partnersCache.get(now, func() ([]byte, error) {
		doc, err := s.partnersDocument(c.Request().Context(), now)
		if err != nil {
			return nil, err
		}
		return respond.Marshal(doc)
	})
	if err != nil {
		return err
	}
	return respond.Validated(c, echo.MIMEApplicationJSON, e.body, e.validators, partnersCacheControl)
}
