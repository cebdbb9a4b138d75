package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
)

// bundleRow is a BundleInput made ready for the bundles table: text cleaned
// of what Postgres refuses, and the derived columns computed.
type bundleRow struct {
	in          BundleInput // cleaned
	conceptList string      // JSON array, never null
	ident       string      // origin identifier and its words
	contentHash string      // hex SHA-256 of the indexed content
	repo        *string     // lowercase owner/repo; nil for domain bundles
	sig         signalCols  // all nil when the bundle has no repository signal
}

// signalCols are the repository signal columns, nil when absent.
type signalCols struct {
	Stars    *int       `json:"stars"`
	Forks    *int       `json:"forks"`
	PushedAt *time.Time `json:"pushed_at"`
	State    *string    `json:"state"`
	Language *string    `json:"language"`
	License  *string    `json:"license"`
}

func (a signalCols) equal(b signalCols) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// newBundleRow cleans in and derives its columns.
func newBundleRow(in BundleInput) bundleRow {
	in = cleanInput(in)
	if in.Card.ConceptList == nil {
		in.Card.ConceptList = []okf.Concept{}
	}
	r := bundleRow{in: in}
	b, _ := json.Marshal(in.Card.ConceptList) // cannot fail
	r.conceptList = string(b)
	if in.Source.Origin != source.OriginDomain && in.Source.Repo != nil && *in.Source.Repo != "" {
		repo := strings.ToLower(*in.Source.Repo)
		r.repo = &repo
	}
	r.ident = identText(in, r.repo)
	r.contentHash = contentHash(in, r.repo)
	r.sig = signalColumns(in.Repo)
	return r
}

// signalColumns are the column values of a (cleaned) repository signal.
func signalColumns(sig *RepoSignal) signalCols {
	if sig == nil {
		return signalCols{}
	}
	stars, forks := sig.Stars, sig.Forks
	c := signalCols{Stars: &stars, Forks: &forks, State: sig.State, Language: sig.Language, License: sig.License}
	if sig.PushedAt != nil {
		t := sig.PushedAt.UTC().Truncate(time.Microsecond) // as stored
		c.PushedAt = &t
	}
	return c
}

// cleanInput strips NUL bytes (which Postgres text refuses) and invalid
// UTF-8 from every string of in.
func cleanInput(in BundleInput) BundleInput {
	c := &in.Card
	for _, p := range []*string{&in.ID, &c.Name, &c.Tagline, &c.Description, &c.OKFVersion, &c.Type,
		&in.IndexURL, &in.PageURL, &in.Source.Origin, &in.Source.Via, &in.Source.URL,
		&in.Source.Host, &in.Source.Dir, &in.Source.Path, &in.RootSHA256} {
		*p = cleanText(*p)
	}
	if in.Source.Repo != nil {
		v := cleanText(*in.Source.Repo)
		in.Source.Repo = &v
	}
	if c.ConceptList != nil {
		list := make([]okf.Concept, len(c.ConceptList))
		for i, k := range c.ConceptList {
			list[i] = okf.Concept{Name: cleanText(k.Name), URL: cleanText(k.URL), Summary: cleanText(k.Summary)}
		}
		c.ConceptList = list
	}
	in.Repo = cleanSignal(in.Repo)
	return in
}

func cleanSignal(sig *RepoSignal) *RepoSignal {
	if sig == nil {
		return nil
	}
	c := *sig
	c.State = cleanPtr(c.State)
	c.Language = cleanPtr(c.Language)
	c.License = cleanPtr(c.License)
	return &c
}

func cleanText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return strings.ToValidUTF8(s, "")
}

func cleanPtr(p *string) *string {
	if p == nil {
		return nil
	}
	v := cleanText(*p)
	return &v
}

// contentHash hashes what a card shows except the repository signals and
// timestamps: the raw root's hash, the card fields, the URLs and the source.
func contentHash(in BundleInput, repo *string) string {
	b, _ := json.Marshal(struct {
		Root     string       `json:"root_sha256"`
		Card     okf.Card     `json:"card"`
		IndexURL string       `json:"index_url"`
		PageURL  string       `json:"page_url"`
		Source   BundleSource `json:"source"`
		Low      bool         `json:"low"`
	}{in.RootSHA256, in.Card, in.IndexURL, in.PageURL, sourceWithRepo(in.Source, repo), in.Low})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func sourceWithRepo(s BundleSource, repo *string) BundleSource {
	s.Repo = repo
	return s
}

// identText is the origin identifier as search indexes it: "owner/repo:path"
// for a repository bundle, the root URL for a domain bundle, followed by its
// words (owner, repository, host labels, directories) so that each of them
// matches on its own.
func identText(in BundleInput, repo *string) string {
	var id string
	var words []string
	if repo != nil {
		id = *repo + ":" + strings.TrimPrefix(in.Source.Path, "/")
		words = append(words, splitWords(*repo)...)
		words = append(words, splitWords(in.Source.Dir)...)
	} else {
		id = in.IndexURL
		if u, err := url.Parse(in.IndexURL); err == nil {
			labels := strings.Split(strings.ToLower(u.Hostname()), ".")
			if len(labels) > 1 {
				labels = labels[:len(labels)-1] // the top-level domain matches too much
			}
			for _, l := range labels {
				if l != "www" {
					words = append(words, splitWords(l)...)
				}
			}
		}
		words = append(words, splitWords(in.Source.Dir)...)
	}
	return strings.TrimSpace(id + " " + strings.Join(words, " "))
}

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
