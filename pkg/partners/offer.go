// Package partners reads the partnership offer of the full variant (contract
// 4.6, GET /api/partners) from the file the operator edits (PARTNERS_FILE;
// the embedded default.yaml when unset) and validates it once, at start, so
// that a bad file stops the API with a message that names the field. It is
// pure: no network, no database; the API adds what comes from elsewhere
// (usage numbers, payment configuration, links).
//
// Placement ids are not the file's to invent: they are the values POST
// /api/contact accepts in espaco (pkg/wire.PlacementIDs, published as an
// enum in the OpenAPI document). The file must describe every one of them,
// each once, so that the ids GET /api/partners lists and the ids contact
// accepts are the same list; a placement not on offer says disponivel:
// false. Partnership kind ids (modalidades) are the contract's
// (pkg/wire.PartnershipKinds).
package partners

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
)

// Offer is the operator's partnership offer as the file states it.
type Offer struct {
	Language         string            `yaml:"idioma" json:"idioma"`
	Title            string            `yaml:"titulo" json:"titulo"`
	Description      string            `yaml:"descricao" json:"descricao"`
	Audience         string            `yaml:"publico" json:"publico"`
	PartnershipKinds []PartnershipKind `yaml:"modalidades" json:"modalidades"`
	Placements       []Placement       `yaml:"placements" json:"placements"`
	HouseBundle      HouseBundle       `yaml:"house_bundle" json:"house_bundle"`
	Partnerships     []string          `yaml:"parcerias" json:"parcerias"`
	CurrentSponsors  []Sponsor         `yaml:"current_sponsors" json:"current_sponsors"`
	Payment          PaymentTerms      `yaml:"payment" json:"payment"`
	Contact          Contact           `yaml:"contact" json:"contact"`
	Policy           map[string]string `yaml:"politica" json:"politica"`
	Links            Links             `yaml:"links" json:"-"`
}

// PartnershipKind is a kind of partnership (a modalidade): its contract id
// and its name.
type PartnershipKind struct {
	ID   string `yaml:"id" json:"id"`
	Name string `yaml:"nome" json:"nome"`
}

// Placement is a place on offer. PriceUSD30d is not written in the file:
// it is the 30-day price of Exposure, so the two cannot disagree.
type Placement struct {
	ID          string     `yaml:"id" json:"id"`
	Name        string     `yaml:"nome" json:"nome"`
	Location    string     `yaml:"onde" json:"onde"`
	Format      string     `yaml:"formato" json:"formato"`
	Exclusive   bool       `yaml:"exclusivo" json:"exclusivo"`
	Measurement string     `yaml:"medicao" json:"medicao"`
	PriceUSD30d *Micros    `yaml:"-" json:"price_usd_30d"`
	Exposure    []Exposure `yaml:"exposure" json:"exposure"`
	Available   bool       `yaml:"disponivel" json:"disponivel"`
}

// Exposure is the price of a placement for a number of days; a nil price
// (null or absent in the file) is "on request".
type Exposure struct {
	Days     int     `yaml:"dias" json:"dias"`
	PriceUSD *Micros `yaml:"price_usd" json:"price_usd"`
}

// HouseBundle describes the house's own OKF bundle; the API adds its URL.
type HouseBundle struct {
	Name        string `yaml:"nome" json:"nome"`
	Description string `yaml:"descricao" json:"descricao"`
}

// Sponsor is a current sponsor: it holds Placements through the UTC date
// Until (YYYY-MM-DD, inclusive); a sponsor past Until is not shown.
type Sponsor struct {
	ID         string   `yaml:"id" json:"id"`
	Name       string   `yaml:"nome" json:"nome"`
	URL        string   `yaml:"url" json:"url"`
	Tagline    string   `yaml:"frase" json:"frase"`
	Placements []string `yaml:"espacos" json:"espacos"`
	Until      string   `yaml:"ate" json:"ate"`
}

// PaymentTerms is the file's part of the payment block: the ways to pay other
// than USDC to the configured address, and a note.
type PaymentTerms struct {
	Alternatives []string `yaml:"alternativas"`
	Note         string   `yaml:"nota"`
}

// Contact is the file's part of the contact block. Email and FormURL are
// optional ("" is published as null).
type Contact struct {
	Email           string `yaml:"email"`
	FormURL         string `yaml:"form_url"`
	MessageTemplate string `yaml:"message_template"`
	Instructions    string `yaml:"instructions"`
}

// Links are the file's links; Home (casa), the house's site, is optional
// (the API's own root when "").
type Links struct {
	Home string `yaml:"casa"`
}

//go:embed default.yaml
var defaultFile []byte

// DefaultFile is the embedded offer used when PARTNERS_FILE is unset.
func DefaultFile() []byte { return bytes.Clone(defaultFile) }

// MaxFileBytes bounds the file.
const MaxFileBytes = 1 << 20

// Load reads and validates the offer at path, or the embedded default when
// path is "".
func Load(path string) (*Offer, error) {
	if path == "" {
		o, err := Parse(defaultFile)
		if err != nil {
			return nil, fmt.Errorf("partners: embedded default.yaml: %w", err)
		}
		return o, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("partners: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("partners: read %s: %w", path, err)
	}
	o, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("partners: %s: %w", path, err)
	}
	return o, nil
}

// ErrTooLarge is a file over MaxFileBytes.
var ErrTooLarge = errors.New("the file is over 1 MiB")
