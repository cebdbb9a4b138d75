package wire

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// Card is a bundle card as the API publishes it (contract 2.1).
type Card struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Tagline     string       `json:"tagline"`
	Description string       `json:"description"`
	OKFVersion  string       `json:"okf_version"`
	Concepts    int          `json:"concepts"` // every concept the root lists
	ConceptList ConceptList  `json:"concept_list"`
	Type        string       `json:"type"`
	IndexURL    string       `json:"index_url"`
	PageURL     string       `json:"page_url"`
	Source      BundleSource `json:"source"`
	Repo        *RepoSignal  `json:"repo"` // nil for domain bundles
	IndexedAt   Timestamp    `json:"indexed_at"`
	UpdatedAt   Timestamp    `json:"updated_at"`
	// API is the absolute URL of this card, from the API's public base URL.
	API string `json:"api"`
	// Cut names the fields of this card that were cut to fit the card's
	// sizes (name, tagline, description, type, okf_version, concept_list,
	// concept_name, concept_summary, repo), in that order; absent when
	// nothing was.
	Cut []string `json:"cut,omitempty"`
	// LookAlikeOf is the id of an earlier bundle whose name this one's
	// looks like without being the same (a homoglyph: Cyrillic "а" for
	// Latin "a", a zero for an o); absent when none.
	LookAlikeOf *string `json:"look_alike_of,omitempty"`
	// Snippet says why a search with q found this bundle: a short passage of
	// the field that matched, its matched words marked. Only items of a
	// search with q carry it; cards never do.
	Snippet *Snippet `json:"snippet,omitempty"`
}

// Snippet is a short passage of one card field with the words that matched
// a search marked (a search result's snippet).
type Snippet struct {
	// Field is the card field the passage comes from: name, tagline,
	// description or concepts.
	Field string `json:"field"`
	// Text is the passage, plain text (never markup), at most
	// MaxSnippetRunes characters; an ellipsis (…) marks a cut.
	Text string `json:"text"`
	// Highlights are the matched spans of Text, each [start, end) in Unicode
	// code points, in order and not overlapping. Never null.
	Highlights [][2]int `json:"highlights"`
}

// MaxSnippetRunes bounds Snippet.Text.
const MaxSnippetRunes = 240

// Concept is one entry a root index lists (contract 2.2).
type Concept struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Summary string `json:"summary"`
}

// ConceptList is a card's concept_list: at most 24 entries, in root order.
type ConceptList []Concept

// MarshalJSON encodes the list as a JSON array; a nil list is [], since the
// contract's concept_list is never null. This is the one place where an
// empty list becomes []: cards, the stored column and the content hash all
// encode through it.
//
// Text is written unescaped (as an encoder with SetEscapeHTML(false)
// writes it); an encoder that escapes HTML escapes it while compacting a
// marshaler's output, so the bytes are the plain slice's either way.
func (l ConceptList) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode([]Concept(l)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// BundleSource is the provenance of a bundle (contract 2.3).
type BundleSource struct {
	Origin Origin  `json:"origin"`
	Via    string  `json:"via"` // "sweep" (the repository sweep) or "indexnow"
	URL    string  `json:"url"`
	Host   string  `json:"host"`
	Repo   *string `json:"repo"` // lowercase owner/repo; nil for domain bundles
	Dir    string  `json:"dir"`
	Path   string  `json:"path"`
}

// DisplayRepo is the bundle's repository as the code host spells it
// ("DreamLab-AI/knowledgeGraph"), read from URL, where Repo is lowercase
// (the contract's source.repo); Repo itself when URL names no repository
// equal to it; "" for a domain bundle.
func (s BundleSource) DisplayRepo() string {
	if s.Repo == nil {
		return ""
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return *s.Repo
	}
	parts := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 3)
	if len(parts) >= 2 && strings.EqualFold(parts[0]+"/"+parts[1], *s.Repo) {
		return parts[0] + "/" + parts[1]
	}
	return *s.Repo
}

// RepoSignal is what the code host says of a bundle's repository (contract 2.4).
type RepoSignal struct {
	Stars    int        `json:"stars"`
	Forks    int        `json:"forks"`
	PushedAt *Timestamp `json:"pushed_at"`
	State    *string    `json:"state"` // active, stalled, archived or gone
	Language *string    `json:"language"`
	License  *string    `json:"license"`
}

// Origin is where a bundle was found (contract 2.3): a code-host repository
// or a domain. It is also the origin filter of a search and the key of the
// statistics' by_origin.
type Origin string

// The origins.
const (
	OriginCodeHost Origin = "code_host" // the repository sweep
	OriginDomain   Origin = "domain"    // submitted by IndexNow
)

// Visibility is where a bundle answers (contract 3.1): live bundles are
// searched; low ones (examples, fixtures, duplicates) answer on their card
// only; hidden ones answer nowhere. It is not a field of the card.
type Visibility string

// The visibilities.
const (
	VisibilityLive   Visibility = "live"
	VisibilityLow    Visibility = "low"
	VisibilityHidden Visibility = "hidden"
)
