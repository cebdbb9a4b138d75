package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/safetext"
	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/wire"
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
	lang        string      // the text search configuration of its language (analysed)
	searchExtra string      // the words the parser would not make, a line per weight (analysed)
	lookAlike   string      // safetext.LookAlikeKey of the name
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

// equal reports whether a and b hold the same values (both times are UTC,
// as stored). Field by field: it runs for every bundle a writer finds
// stored, and comparing their JSON cost a re-import more than the rest of
// its work in Go.
func (a signalCols) equal(b signalCols) bool {
	return eqPtr(a.Stars, b.Stars) && eqPtr(a.Forks, b.Forks) && eqPtr(a.State, b.State) &&
		eqPtr(a.Language, b.Language) && eqPtr(a.License, b.License) &&
		(a.PushedAt == nil) == (b.PushedAt == nil) && (a.PushedAt == nil || a.PushedAt.Equal(*b.PushedAt))
}

// eqPtr reports whether a and b are both nil or point to equal values.
func eqPtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// newBundleRow cleans in, fits its card to the card's sizes
// (cardsize.Fit: whatever a writer hands over, no field reaches an index
// uncapped) and derives its columns.
func newBundleRow(in BundleInput) bundleRow {
	in = cleanInput(in)
	cardsize.Fit(&in.Card)
	r := bundleRow{in: in, lookAlike: safetext.LookAlikeKey(in.Name)}
	list, _ := json.Marshal(in.ConceptList) // cannot fail; nil is []
	r.conceptList = string(list)
	if in.Source.Origin != wire.OriginDomain && in.Source.Repo != nil && *in.Source.Repo != "" {
		repo := strings.ToLower(*in.Source.Repo)
		r.repo = &repo
	}
	r.ident = identText(in, r.repo)
	r.contentHash = contentHash(in, r.repo, list)
	r.sig = signalColumns(in.Repo)
	return r
}

// analysed is r with its search columns (lang, searchExtra) computed: only
// the rows a writer writes pay for it, not the unchanged ones it skips.
func (r bundleRow) analysed() bundleRow {
	r.lang, r.searchExtra = analyse(r.in)
	return r
}

// analysisVersion is the version of analyse that the analysis column
// records: a change of analyse (or of pkg/searchtext) that changes what a
// stored row would hold increments it, and writers then rewrite rows of an
// older version even when their content is the same (migration 0018).
// Version 2 adds the look_alike_key column (migration 0021); version 3
// splits the repository as the code host spells it (its camelCase), not
// the lowercase source.repo; version 4 adds the glued words of names
// joined by '-', '_' or '.' ("kf-cpto" -> kfcpto); version 5 the names
// of the bundle's language when it is not English (LanguageNames);
// version 6 tells Turkish (okf_turkish, migration 0033); version 7 adds
// the words of names written with symbols ("C++" -> cpp); version 8 the
// name's neighbouring words glued ("Home Assistant" -> homeassistant).
const analysisVersion = 8

// analyse returns the language configuration of a (cleaned) bundle and its
// search_extra column: searchtext.Expand of each weight's text, a line
// each: A the name's words glued in pairs (searchtext.NamePairs), and the
// name and the repository as the code host spells it (the stored repo is
// lowercase, which loses its camelCase), B the tagline, C
// the description and the names of the bundle's language
// (searchtext.LanguageNames), D the concepts' names and summaries.
func analyse(in BundleInput) (lang, extra string) {
	var concepts strings.Builder
	for _, k := range in.ConceptList {
		concepts.WriteString(k.Name)
		concepts.WriteByte(' ')
		concepts.WriteString(k.Summary)
		concepts.WriteByte(' ')
	}
	a := in.Name + " " + in.Source.Dir + " " + in.Source.DisplayRepo()
	text := in.Name + " " + in.Tagline + " " + in.Description + " " + concepts.String()
	lang = searchtext.Language(text)
	// The language's names go with the description's words (C), which are
	// also analysed in English: "german recipes" finds "Rezepte" before an
	// English bundle that mentions German once. A CJK name is also cut
	// into its bigrams, as a query cuts it.
	names := searchtext.LanguageNames(lang, text)
	description := strings.Join(slices.DeleteFunc([]string{searchtext.Expand(in.Description), names, searchtext.Expand(names)},
		func(s string) bool { return s == "" }), " ")
	// The name's words glued in pairs first: the head keeps the first
	// characters of this line.
	head := strings.TrimSpace(searchtext.NamePairs(in.Name) + " " + searchtext.Expand(a))
	extra = strings.Join([]string{head, searchtext.Expand(in.Tagline),
		description, searchtext.Expand(concepts.String())}, "\n")
	return lang, extra
}

// signalColumns are the column values of a (cleaned) repository signal.
func signalColumns(sig *wire.RepoSignal) signalCols {
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
	for _, p := range []*string{&in.ID, &in.Name, &in.Tagline, &in.Description, &in.OKFVersion, &in.Type,
		&in.IndexURL, &in.PageURL, &in.Source.Via, &in.Source.URL,
		&in.Source.Host, &in.Source.Dir, &in.Source.Path, &in.RootSHA256} {
		*p = cleanText(*p)
	}
	in.Source.Origin = wire.Origin(cleanText(string(in.Source.Origin)))
	in.Source.Repo = cleanPtr(in.Source.Repo)
	if in.ConceptList != nil {
		list := make(wire.ConceptList, len(in.ConceptList))
		for i, k := range in.ConceptList {
			list[i] = wire.Concept{Name: cleanText(k.Name), URL: cleanText(k.URL), Summary: cleanText(k.Summary)}
		}
		in.ConceptList = list
	}
	in.Repo = cleanSignal(in.Repo)
	return in
}

func cleanSignal(sig *wire.RepoSignal) *wire.RepoSignal {
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
// The hashed document is fixed (TestContentHashIsStable): a bundle whose
// hash changes gets a new updated_at, so the encoding must not follow the
// card type. list is json.Marshal of in.ConceptList, which the concept_list
// column holds too: marshalled once, and json.Marshal copies it as it is
// (it is already compact and escaped).
func contentHash(in BundleInput, repo *string, list json.RawMessage) string {
	src := in.Source
	src.Repo = repo
	b, _ := json.Marshal(struct {
		Root     string            `json:"root_sha256"`
		Card     hashedCard        `json:"card"`
		IndexURL string            `json:"index_url"`
		PageURL  string            `json:"page_url"`
		Source   wire.BundleSource `json:"source"`
		Low      bool              `json:"low"`
	}{in.RootSHA256, hashedCard{in.Name, in.Tagline, in.Description, in.OKFVersion, in.Concepts, list, in.Type},
		in.IndexURL, in.PageURL, src, in.Low})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// hashedCard is the part of the card contentHash reads, in the order and
// under the names it has always hashed.
type hashedCard struct {
	Name        string          `json:"name"`
	Tagline     string          `json:"tagline"`
	Description string          `json:"description"`
	OKFVersion  string          `json:"okf_version"`
	Concepts    int             `json:"concepts"`
	ConceptList json.RawMessage `json:"concept_list"`
	Type        string          `json:"type"`
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
