package partners

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/okfindex/okf-index/pkg/wire"
)

// Exposure periods every placement prices, in days, in this order.
var ExposureDays = []int{30, 90, 365}

// Bounds of the file's values.
const (
	maxText      = 2000 // characters of a free text (descricao, instructions ...)
	maxName      = 200  // characters of a name or short line
	maxSponsors  = 100
	maxListItems = 50 // parcerias, alternativas, politica entries
)

// Forms of ids and keys.
var (
	sponsorID   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)
	policyKey   = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
	languageTag = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)

// FieldError is a value of the file that is wrong: Field is its path in the
// file (placements[2].exposure[1].dias), Reason says what is wrong.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

func bad(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Parse decodes and validates an offer. Unknown keys, a second document,
// a wrong type and every rule below are errors naming the field.
func Parse(b []byte) (*Offer, error) {
	if len(b) > MaxFileBytes {
		return nil, ErrTooLarge
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var o Offer
	if err := dec.Decode(&o); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty")
		}
		return nil, fmt.Errorf("decode: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("the file holds more than one YAML document")
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	return &o, nil
}

// validate checks the offer and fills PriceUSD30d.
func (o *Offer) validate() error {
	if !languageTag.MatchString(o.Language) {
		return bad("idioma", "%q is not a language tag such as en or pt-BR", o.Language)
	}
	for _, f := range []struct{ name, v string }{
		{"titulo", o.Title}, {"descricao", o.Description}, {"publico", o.Audience},
		{"house_bundle.nome", o.HouseBundle.Name}, {"house_bundle.descricao", o.HouseBundle.Description},
		{"payment.nota", o.Payment.Note}, {"contact.message_template", o.Contact.MessageTemplate},
		{"contact.instructions", o.Contact.Instructions},
	} {
		if err := text(f.name, f.v, maxText); err != nil {
			return err
		}
	}
	if err := o.validatePartnershipKinds(); err != nil {
		return err
	}
	if err := o.validatePlacements(); err != nil {
		return err
	}
	if err := o.validateSponsors(); err != nil {
		return err
	}
	if err := list("parcerias", o.Partnerships); err != nil {
		return err
	}
	if err := list("payment.alternativas", o.Payment.Alternatives); err != nil {
		return err
	}
	if o.Contact.Email != "" {
		if a, err := mail.ParseAddress(o.Contact.Email); err != nil || a.Name != "" || a.Address != o.Contact.Email {
			return bad("contact.email", "%q is not one e-mail address", o.Contact.Email)
		}
	}
	if o.Contact.FormURL != "" && !absoluteURL(o.Contact.FormURL) {
		return bad("contact.form_url", "%q is not an absolute http(s) URL", o.Contact.FormURL)
	}
	if o.Links.Home != "" && !absoluteURL(o.Links.Home) {
		return bad("links.casa", "%q is not an absolute http(s) URL", o.Links.Home)
	}
	if len(o.Policy) == 0 {
		return bad("politica", "is required: at least one rule, such as rotulo: sponsored content is labelled")
	}
	if len(o.Policy) > maxListItems {
		return bad("politica", "has over %d entries", maxListItems)
	}
	for k, v := range o.Policy {
		if !policyKey.MatchString(k) {
			return bad("politica", "key %q must be lower case letters, digits and _ (at most 40)", k)
		}
		if err := text("politica."+k, v, maxText); err != nil {
			return err
		}
	}
	return nil
}

func (o *Offer) validatePartnershipKinds() error {
	seen := map[string]bool{}
	for i, m := range o.PartnershipKinds {
		f := fmt.Sprintf("modalidades[%d]", i)
		if !slices.Contains(wire.PartnershipKinds, m.ID) {
			return bad(f+".id", "%q is not a modalidade; the ids are %s", m.ID, strings.Join(wire.PartnershipKinds, ", "))
		}
		if seen[m.ID] {
			return bad(f+".id", "%q is listed twice", m.ID)
		}
		seen[m.ID] = true
		if err := text(f+".nome", m.Name, maxName); err != nil {
			return err
		}
	}
	for _, id := range wire.PartnershipKinds {
		if !seen[id] {
			return bad("modalidades", "%s is missing; list each of %s once", id, strings.Join(wire.PartnershipKinds, ", "))
		}
	}
	return nil
}

func (o *Offer) validatePlacements() error {
	seen := map[string]bool{}
	for i := range o.Placements {
		p := &o.Placements[i]
		f := fmt.Sprintf("placements[%d]", i)
		if !slices.Contains(wire.PlacementIDs, p.ID) {
			return bad(f+".id", "%q is not a placement id; the ids are those POST /api/contact accepts in espaco: %s",
				p.ID, strings.Join(wire.PlacementIDs, ", "))
		}
		if seen[p.ID] {
			return bad(f+".id", "%q is listed twice", p.ID)
		}
		seen[p.ID] = true
		for _, t := range []struct{ name, v string }{{"nome", p.Name}, {"onde", p.Location}, {"formato", p.Format}, {"medicao", p.Measurement}} {
			if err := text(f+"."+t.name, t.v, maxName); err != nil {
				return err
			}
		}
		if len(p.Exposure) != len(ExposureDays) {
			return bad(f+".exposure", "has %d entries; it prices exactly %v days, in that order", len(p.Exposure), ExposureDays)
		}
		for j, e := range p.Exposure {
			if e.Days != ExposureDays[j] {
				return bad(fmt.Sprintf("%s.exposure[%d].dias", f, j), "is %d, want %d (exactly %v days, in that order)", e.Days, ExposureDays[j], ExposureDays)
			}
		}
		p.PriceUSD30d = p.Exposure[0].PriceUSD
	}
	for _, id := range wire.PlacementIDs {
		if !seen[id] {
			return bad("placements", "%s is missing; describe every placement id once (disponivel: false withdraws one)", id)
		}
	}
	return nil
}

func (o *Offer) validateSponsors() error {
	if len(o.CurrentSponsors) > maxSponsors {
		return bad("current_sponsors", "has over %d entries", maxSponsors)
	}
	seen := map[string]bool{}
	for i, s := range o.CurrentSponsors {
		f := fmt.Sprintf("current_sponsors[%d]", i)
		if !sponsorID.MatchString(s.ID) {
			return bad(f+".id", "%q must be 1 to 40 lower case letters, digits, _ or -", s.ID)
		}
		if seen[s.ID] {
			return bad(f+".id", "%q is listed twice", s.ID)
		}
		seen[s.ID] = true
		if err := text(f+".nome", s.Name, maxName); err != nil {
			return err
		}
		if err := text(f+".frase", s.Tagline, maxName); err != nil {
			return err
		}
		if !absoluteURL(s.URL) {
			return bad(f+".url", "%q is not an absolute http(s) URL", s.URL)
		}
		if len(s.Placements) == 0 {
			return bad(f+".espacos", "is required: the placement ids the sponsor holds")
		}
		for j, e := range s.Placements {
			if !slices.Contains(wire.PlacementIDs, e) || slices.Contains(s.Placements[:j], e) {
				return bad(fmt.Sprintf("%s.espacos[%d]", f, j), "%q is not a distinct placement id of placements", e)
			}
		}
		if _, err := time.Parse(time.DateOnly, s.Until); err != nil {
			return bad(f+".ate", "%q is not a date YYYY-MM-DD", s.Until)
		}
	}
	return nil
}

// text checks a required one-value text: present, valid UTF-8, no NUL,
// at most max characters.
func text(field, v string, max int) error {
	switch {
	case strings.TrimSpace(v) == "":
		return bad(field, "is required")
	case !utf8.ValidString(v) || strings.ContainsRune(v, 0):
		return bad(field, "is not valid text")
	case utf8.RuneCountInString(v) > max:
		return bad(field, "is over %d characters", max)
	}
	return nil
}

// list checks a list of distinct short texts (empty is allowed).
func list(field string, vs []string) error {
	if len(vs) > maxListItems {
		return bad(field, "has over %d entries", maxListItems)
	}
	for i, v := range vs {
		if err := text(fmt.Sprintf("%s[%d]", field, i), v, maxName); err != nil {
			return err
		}
		if slices.Contains(vs[:i], v) {
			return bad(fmt.Sprintf("%s[%d]", field, i), "%q is listed twice", v)
		}
	}
	return nil
}

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// Showing returns the sponsors whose term has not ended on day (UTC).
func (o *Offer) Showing(day time.Time) []Sponsor {
	today := day.UTC().Format(time.DateOnly)
	out := []Sponsor{}
	for _, s := range o.CurrentSponsors {
		if s.Until >= today { // YYYY-MM-DD compares as text
			out = append(out, s)
		}
	}
	return out
}
