// Package indexer turns the bytes of a root index.md found at a place (a file
// in a repository, or a URL on a domain) into the record the store writes. It
// is the one place that decides what a card publishes for a bundle, shared by
// every way in: okfctl import and lint, the sweep and IndexNow. Pure: no I/O.
package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
)

// RepoInfo is what the code host says of a repository.
type RepoInfo struct {
	Stars    int
	Forks    int
	PushedAt *time.Time
	Archived bool
	Language string // "" when unknown
	License  string // SPDX id; "" when unknown
}

// Signal is the card's repo block for info, classified at now.
func (info RepoInfo) Signal(now time.Time) *store.RepoSignal {
	state := source.RepoState(false, info.Archived, info.PushedAt, now)
	sig := &store.RepoSignal{Stars: info.Stars, Forks: info.Forks, State: &state}
	if info.PushedAt != nil {
		sig.PushedAt = &store.Timestamp{Time: info.PushedAt.UTC()}
	}
	if info.Language != "" {
		sig.Language = &info.Language
	}
	if info.License != "" {
		sig.License = &info.License
	}
	return sig
}

// FromRepo parses a root found in a repository. It returns okf.ErrNotBundle
// (wrapped) when the file is not a bundle root.
func FromRepo(data []byte, r source.Repo, info RepoInfo, now time.Time) (store.BundleInput, error) {
	card, err := okf.Parse(data, okf.Root{URL: r.IndexURL(), Label: r.Owner + "/" + r.Name, Dir: r.Dir()})
	if err != nil {
		return store.BundleInput{}, fmt.Errorf("indexer: %s: %w", r.Identity(), err)
	}
	repo := r.FullName()
	normalize(&card)
	return store.BundleInput{
		ID:       r.ID(),
		Card:     card,
		IndexURL: r.IndexURL(),
		PageURL:  r.PageURL(),
		Source: store.BundleSource{
			Origin: source.OriginCodeHost,
			Via:    source.ViaSweep,
			URL:    r.RepoURL(),
			Host:   "github.com",
			Repo:   &repo,
			Dir:    r.Dir(),
			Path:   r.Path,
		},
		Repo:       info.Signal(now),
		RootSHA256: sha256Hex(data),
		Low:        r.Low(),
	}, nil
}

// FromSite parses a root served by a domain and submitted by IndexNow.
func FromSite(data []byte, s source.Site) (store.BundleInput, error) {
	card, err := okf.Parse(data, okf.Root{URL: s.URL, Label: s.Host(), Dir: s.Dir()})
	if err != nil {
		return store.BundleInput{}, fmt.Errorf("indexer: %s: %w", s.URL, err)
	}
	normalize(&card)
	return store.BundleInput{
		ID:       s.ID(),
		Card:     card,
		IndexURL: s.URL,
		PageURL:  s.URL,
		Source: store.BundleSource{
			Origin: source.OriginDomain,
			Via:    source.ViaIndexNow,
			URL:    s.SiteURL(),
			Host:   s.Host(),
			Dir:    s.Dir(),
			Path:   s.Path(),
		},
		RootSHA256: sha256Hex(data),
		Low:        s.Low(),
	}, nil
}

// Preview is the card the API would publish for in, had it been indexed at
// now: what okfctl lint prints. apiBase is the API's public base URL.
func Preview(in store.BundleInput, apiBase string, now time.Time) store.Bundle {
	ts := store.Timestamp{Time: now.UTC().Truncate(time.Second)}
	vis := store.VisibilityLive
	if in.Low {
		vis = store.VisibilityLow
	}
	return store.Bundle{
		ID:         in.ID,
		Card:       in.Card,
		IndexURL:   in.IndexURL,
		PageURL:    in.PageURL,
		Source:     in.Source,
		Repo:       in.Repo,
		IndexedAt:  ts,
		UpdatedAt:  ts,
		API:        apiBase + "/api/bundles/" + in.ID,
		Visibility: vis,
	}
}

// normalize makes an empty concept list encode as [] rather than null.
func normalize(card *okf.Card) {
	if card.ConceptList == nil {
		card.ConceptList = []okf.Concept{}
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
