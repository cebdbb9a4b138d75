// Package partners serves GET /api/partners of the full variant (contract
// 4.6): the partnership offer. The operator's file (PARTNERS_FILE,
// pkg/partners) gives the offer; this package adds what comes from
// elsewhere: the usage excerpt (package vitrine), the payment
// configuration (package billing), the contact route's fields and price,
// and absolute links from PUBLIC_BASE_URL.
//
// The answer is cached for an hour by clients (Cache-Control) with a
// strong ETag of its bytes; If-None-Match naming it is a 304. The server
// keeps the encoded body for bodyTTL, so a burst of requests builds it
// once, and a sponsor whose term ended or new usage numbers show within a
// minute.
package partners

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	offer "github.com/okfindex/okf-index/pkg/partners"
	"github.com/okfindex/okf-index/pkg/ttlcache"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
	"github.com/okfindex/okf-index/services/api/server/vitrine"
)

// Deps are what the partners route needs.
type Deps struct {
	Offer   *offer.Offer     // the operator's offer (PARTNERS_FILE)
	BaseURL string           // PUBLIC_BASE_URL without a trailing slash
	Now     func() time.Time // the clock of the sponsors' terms and the cache
	Billing *billing.Service // the payment configuration
	Vitrine *vitrine.Service // the usage excerpt
	// HasRoute reports whether this variant's route table has a route; it
	// is read at request time, once the table is built.
	HasRoute func(method, path string) bool
}

// Service answers GET /api/partners.
type Service struct {
	d     Deps
	cache *ttlcache.Cache[encodedBody] // the encoded answer, for bodyTTL
}

// New builds the partners route of d.
func New(d Deps) *Service { return &Service{d: d, cache: ttlcache.New[encodedBody](bodyTTL, d.Now)} }

// Routes are the partners' rows of the route table.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/partners", Summary: "The partnership offer: placements, prices, sponsors, how to propose", Full: true,
			Handler: s.getPartners, Usage: route.CountedAsAPI},
	}
}

// Caching of GET /api/partners: an hour in clients, a minute here.
const (
	cacheControl = "public, max-age=3600"
	bodyTTL      = time.Minute
)

// pagePath is where the web page of the offer will live; _links.page
// is null until the route table of this variant has that page.
const pagePath = "/parceiros"

// offerStatus is the contract's only status: information and proposals,
// no activation or charge.
const offerStatus = "sob_consulta"

// Document is the answer of GET /api/partners.
type Document struct {
	Status           string                  `json:"status"`
	Product          string                  `json:"produto"`
	Language         string                  `json:"idioma"`
	Title            string                  `json:"titulo"`
	Description      string                  `json:"descricao"`
	Audience         string                  `json:"publico"`
	PartnershipKinds []offer.PartnershipKind `json:"modalidades"`
	Placements       []offer.Placement       `json:"placements"`
	HouseBundle      HouseBundle             `json:"house_bundle"`
	Partnerships     []string                `json:"parcerias"`
	CurrentSponsors  []offer.Sponsor         `json:"current_sponsors"`
	Stats            any                     `json:"stats"`
	Payment          PartnerPayment          `json:"payment"`
	Contact          Contact                 `json:"contact"`
	Policy           map[string]string       `json:"politica"`
	Links            Links                   `json:"_links"`
}

// HouseBundle is the house's own OKF bundle.
type HouseBundle struct {
	Name        string `json:"nome"`
	Description string `json:"descricao"`
	URL         string `json:"url"`
}

// PartnerPayment is how a partner pays: USDC to the configured address on
// the configured network (the x402 configuration of GET /api/billing), or
// the file's alternatives.
type PartnerPayment struct {
	Network      string   `json:"rede"`
	ChainID      int64    `json:"chain_id"`
	Active       bool     `json:"ativo"`
	PayTo        *string  `json:"pay_to"`
	EIP681       *string  `json:"eip681"`
	Alternatives []string `json:"alternativas"`
	Note         string   `json:"nota"`
}

// Contact is how to write a proposal: POST /api/contact.
type Contact struct {
	Email           *string      `json:"email"`
	FormURL         *string      `json:"form_url"`
	APIURL          string       `json:"api_url"`
	Fields          []string     `json:"campos"`
	ProposalFields  []string     `json:"campos_proposta"`
	PriceAgentUSD   offer.Micros `json:"price_agent_usd"`
	MessageTemplate string       `json:"message_template"`
	Instructions    string       `json:"instructions"`
}

// Links are the offer's absolute links.
type Links struct {
	Self    string  `json:"self"`
	Stats   string  `json:"stats"`
	Page    *string `json:"page"`
	Contact string  `json:"contact"`
	Home    string  `json:"casa"`
}

// The fields of POST /api/contact: those every message needs, and the
// proposal's (ContactRequest).
var (
	contactFields         = []string{"name", "email", "message"}
	contactProposalFields = []string{"tipo", "empresa", "site", "orcamento", "espaco", "duracao", "pagamento"}
)

// document builds the answer at now.
func (s *Service) document(ctx context.Context, now time.Time) (Document, error) {
	o := s.d.Offer
	stats, err := s.stats(ctx)
	if err != nil {
		return Document{}, err
	}
	net := s.d.Billing.Network()
	pay := PartnerPayment{Network: net.Name, ChainID: net.ChainID, Alternatives: o.Payment.Alternatives, Note: o.Payment.Note}
	if pay.Alternatives == nil {
		pay.Alternatives = []string{}
	}
	if payTo, ok := s.d.Billing.PayTo(); ok {
		// EIP-681: a USDC transfer to the address; the amount is the
		// proposal's, so it is left to the wallet.
		eip681 := "ethereum:" + net.USDC + "@" + strconv.FormatInt(net.ChainID, 10) + "/transfer?address=" + payTo
		pay.PayTo, pay.EIP681 = &payTo, &eip681
		pay.Active = s.d.Billing.Mode() == billing.Live
	}
	links := Links{
		Self:    s.d.BaseURL + "/api/partners",
		Stats:   s.d.BaseURL + "/api/vitrine",
		Contact: s.d.BaseURL + "/api/contact",
		Home:    o.Links.Home,
	}
	if links.Home == "" {
		links.Home = s.d.BaseURL + "/"
	}
	if s.d.HasRoute(http.MethodGet, pagePath) {
		page := s.d.BaseURL + pagePath
		links.Page = &page
	}
	partnerships := o.Partnerships
	if partnerships == nil {
		partnerships = []string{}
	}
	return Document{
		Status:           offerStatus,
		Product:          wire.ProductID,
		Language:         o.Language,
		Title:            o.Title,
		Description:      o.Description,
		Audience:         o.Audience,
		PartnershipKinds: o.PartnershipKinds,
		Placements:       o.Placements,
		HouseBundle:      HouseBundle{Name: o.HouseBundle.Name, Description: o.HouseBundle.Description, URL: s.d.BaseURL + "/okf/index.md"},
		Partnerships:     partnerships,
		CurrentSponsors:  o.Showing(now),
		Stats:            stats,
		Payment:          pay,
		Contact: Contact{
			Email:           nonEmpty(o.Contact.Email),
			FormURL:         nonEmpty(o.Contact.FormURL),
			APIURL:          s.d.BaseURL + "/api/contact",
			Fields:          contactFields,
			ProposalFields:  contactProposalFields,
			PriceAgentUSD:   offer.Micros(billing.ContactPriceMicros),
			MessageTemplate: o.Contact.MessageTemplate,
			Instructions:    o.Contact.Instructions,
		},
		Policy: o.Policy,
		Links:  links,
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

// getPartners answers GET /api/partners [full only].
func (s *Service) getPartners(c echo.Context) error {
	e, err := s.cache.Get(c.Request().Context(), func(ctx context.Context) (encodedBody, error) {
		doc, err := s.document(ctx, s.d.Now())
		if err != nil {
			return encodedBody{}, err
		}
		b, err := respond.Marshal(doc)
		if err != nil {
			return encodedBody{}, err
		}
		return encodedBody{body: b, validators: respond.StrongValidatorsOf(b)}, nil
	})
	if err != nil {
		return err
	}
	return respond.Validated(c, echo.MIMEApplicationJSON, e.body, e.validators, cacheControl)
}

// stats is the stats block of GET /api/partners: the excerpt of the public
// usage projection (GET /api/vitrine) with its link. It is the one place
// the partners answer reads usage numbers. Before the first publication it
// is only {publicado: false, link}, as the projection itself then carries
// only its five keys.
func (s *Service) stats(ctx context.Context) (any, error) {
	ex, err := s.d.Vitrine.Excerpt(ctx)
	if err != nil || !ex.Published {
		return map[string]any{"publicado": false, "link": ex.Link}, err
	}
	return ex, nil
}
