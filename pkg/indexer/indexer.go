// Package indexer turns the bytes of a root index.md found at a place (a file
// in a repository, or a URL on a domain) into the record the store writes. It
// is the one place that decides what a card publishes for a bundle, shared by
// every way in: okfctl import and lint, the sweep and IndexNow. Pure: no I/O.
package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safetext"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// RepoInfo is what the code host says of a repository.
type RepoInfo struct {
	Stars    int
	Forks    int
	PushedAt *time.Time
	Archived bool
	Language string // "" when unknown
	License  string // SPDX id; "" when unknown
	// Files is the repository's tree when it is known (the sweep's listing,
	// an import's files on disk): "/x" links follow okf.LinkPath and the
	// parser counts the concept links to missing files. nil: unknown.
	Files okf.Files
}

// Check reports a signal out of range (a *cardsize.SignalError): then the
// repository's roots are not indexed, and the others of its batch are.
func (info RepoInfo) Check() error {
	return cardsize.CheckSignal(int64(info.Stars), int64(info.Forks))
}

// Signal is the card's repo block for info, classified at now.
func (info RepoInfo) Signal(now time.Time) *wire.RepoSignal {
	state := source.RepoState(false, info.Archived, info.PushedAt, now)
	sig := &wire.RepoSignal{Stars: info.Stars, Forks: info.Forks, State: &state}
	if info.PushedAt != nil {
		sig.PushedAt = &wire.Timestamp{Time: info.PushedAt.UTC()}
	}
	if info.Language != "" {
		sig.Language = &info.Language
	}
	if info.License != "" {
		sig.License = &info.License
	}
	return sig
}

// Parsed is one root as the indexer reads it: the record the store writes,
// and the parser's own result, whose bookkeeping (a fallback name, a root
// cut short, the relative links) okfctl lint reports.
type Parsed struct {
	Input store.BundleInput
	Card  okf.Card
}

// FromRepo parses a root found in a repository. It returns okf.ErrNotBundle
// (wrapped) when the file is not a bundle root.
func FromRepo(data []byte, r source.Repo, info RepoInfo, now time.Time) (store.BundleInput, error) {
	p, err := ParseRepo(data, r, info, now)
	return p.Input, err
}

// FromSite parses a root served by a domain and submitted by IndexNow.
func FromSite(data []byte, s source.Site) (store.BundleInput, error) {
	p, err := ParseSite(data, s)
	return p.Input, err
}

// MaxPathBytes bounds the path of a root inside its repository: a card
// shows it four times (index_url, page_url, source.path and source.dir).
const MaxPathBytes = 1024

// ErrPathTooLong is returned for a root whose path is longer than
// MaxPathBytes.
var ErrPathTooLong = errors.New("indexer: path longer than 1024 bytes")

// ParseRepo is FromRepo with the parser's result. A repository whose
// signals fail info.Check, or a path longer than MaxPathBytes, is an error
// for every root.
func ParseRepo(data []byte, r source.Repo, info RepoInfo, now time.Time) (Parsed, error) {
	if len(r.Path) > MaxPathBytes {
		return Parsed{}, fmt.Errorf("indexer: %s: %w", safetext.CapBytes(r.Identity(), 200), ErrPathTooLong)
	}
	if err := info.Check(); err != nil {
		return Parsed{}, fmt.Errorf("indexer: %s: %w", r.Identity(), err)
	}
	parsed, err := okf.Parse(data, okf.Root{URL: r.IndexURL(), Label: r.Owner + "/" + r.Name, Dir: r.Dir(), Files: info.Files})
	if err != nil {
		return Parsed{}, fmt.Errorf("indexer: %s: %w", r.Identity(), err)
	}
	repo := r.FullName()
	c := card(parsed)
	c.ID, c.IndexURL, c.PageURL = r.ID(), r.IndexURL(), r.PageURL()
	c.Source = wire.BundleSource{
		Origin: wire.OriginCodeHost,
		Via:    source.ViaSweep,
		URL:    r.RepoURL(),
		Host:   "github.com",
		Repo:   &repo,
		Dir:    r.Dir(),
		Path:   r.Path,
	}
	c.Repo = info.Signal(now)
	cardsize.Fit(&c)
	return Parsed{store.BundleInput{Card: c, RootSHA256: sha256Hex(data), Low: r.Low()}, parsed}, nil
}

// ParseSite is FromSite with the parser's result.
func ParseSite(data []byte, s source.Site) (Parsed, error) {
	parsed, err := okf.Parse(data, okf.Root{URL: s.URL, Label: s.Host(), Dir: s.Dir()})
	if err != nil {
		return Parsed{}, fmt.Errorf("indexer: %s: %w", s.URL, err)
	}
	c := card(parsed)
	c.ID, c.IndexURL, c.PageURL = s.ID(), s.URL, s.URL
	c.Source = wire.BundleSource{
		Origin: wire.OriginDomain,
		Via:    source.ViaIndexNow,
		URL:    s.SiteURL(),
		Host:   s.Host(),
		Dir:    s.Dir(),
		Path:   s.Path(),
	}
	cardsize.Fit(&c)
	return Parsed{store.BundleInput{Card: c, RootSHA256: sha256Hex(data), Low: s.Low()}, parsed}, nil
}

// card is the part of a card that a root's text decides: the one mapping
// from the parser's result to the published card; ParseRepo and ParseSite
// fit the whole card to its sizes (cardsize.Fit).
func card(p okf.Card) wire.Card {
	list := make(wire.ConceptList, len(p.ConceptList))
	for i, c := range p.ConceptList {
		list[i] = wire.Concept{Name: c.Name, URL: c.URL, Summary: c.Summary}
	}
	c := wire.Card{
		Name:        p.Name,
		Tagline:     p.Tagline,
		Description: p.Description,
		OKFVersion:  p.OKFVersion,
		Concepts:    p.Concepts,
		ConceptList: list,
		Type:        p.Type,
	}
	return c
}

// Preview is the card the API would publish for in, had it been indexed at
// now: what okfctl lint prints. apiBase is the API's public base URL.
func Preview(in store.BundleInput, apiBase string, now time.Time) store.Bundle {
	b := store.Bundle{Card: in.Card, Visibility: wire.VisibilityLive}
	if in.Low {
		b.Visibility = wire.VisibilityLow
	}
	b.IndexedAt = wire.Timestamp{Time: now.UTC().Truncate(time.Second)}
	b.UpdatedAt = b.IndexedAt
	b.API = apiBase + "/api/bundles/" + in.ID
	return b
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
