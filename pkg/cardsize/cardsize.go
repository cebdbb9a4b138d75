// Package cardsize owns the sizes of everything a bundle card holds: the cap
// of each text field, of the concept list and of the card's encoded size, and
// Fit, the one function that makes a card keep them and says on the card
// what it cut. It also checks the numbers a repository's signals carry.
//
// Every way into the index (the sweep, IndexNow pings, okfctl import) makes
// its card through package indexer, which fits it; the store fits again
// whatever a writer hands it, so no field reaches an index uncapped. Pure:
// no I/O. The numbers are decided in docs/decisions.md ("Bounded
// everything") and published in api/openapi.json.
package cardsize

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/okfindex/okf-index/pkg/safetext"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The caps, in characters (Unicode code points) unless they say bytes.
const (
	MaxName           = 200  // name
	MaxTagline        = 300  // tagline
	MaxDescription    = 1000 // description (contract section 8)
	MaxType           = 40   // type: what the type filter accepts
	MaxVersion        = 20   // okf_version: what the version filter accepts
	MaxConcepts       = 24   // concept_list entries (contract section 8)
	MaxConceptName    = 200  // a concept's name
	MaxConceptSummary = 500  // a concept's summary
	MaxConceptURL     = 2048 // a concept's url, bytes; a longer one is not listed
	MaxSignalText     = 40   // repo.language and repo.license: what their filters accept
	// MaxCardBytes bounds a card's JSON as the API writes it. Fit holds the
	// stored card to MaxCardBytes-cardReserve, leaving the rest for the
	// api URL and a search result's snippet.
	MaxCardBytes = 16 << 10
	cardReserve  = 2 << 10
	// MaxSignal is the largest stars or forks count (the columns are 32-bit).
	MaxSignal = math.MaxInt32
)

// The words of wire.Card.Cut, in the order Cut lists them.
const (
	CutName           = "name"
	CutTagline        = "tagline"
	CutDescription    = "description"
	CutType           = "type"
	CutVersion        = "okf_version"
	CutConceptList    = "concept_list"
	CutConceptName    = "concept_name"
	CutConceptSummary = "concept_summary"
	CutRepo           = "repo"
)

var cutOrder = []string{CutName, CutTagline, CutDescription, CutType, CutVersion, CutConceptList,
	CutConceptName, CutConceptSummary, CutRepo}

// Fit cleans every text field of c that its author wrote (safetext.Line for
// one-line fields, safetext.Block for the description), caps each, and then
// holds the card's encoded size under MaxCardBytes-cardReserve by listing
// fewer concepts (from the end) and, should that not do, a shorter
// description. c.Cut gains the fields it cut; c.Concepts, the count of every
// concept the root lists, is left alone. Fitting a fitted card changes
// nothing.
//
// Decisions: one-line fields that are read (name, tagline, a concept's name
// and summary) end in "…" when cut; values that are filtered on (type,
// okf_version, language, license) are cut without one, so that the facet a
// statistics page links is one the filter accepts. A concept whose URL is
// longer than MaxConceptURL is not listed.
func Fit(c *wire.Card) {
	cut := map[string]bool{}
	for _, w := range c.Cut {
		cut[w] = true
	}
	line := func(s *string, n int, ellipsis bool, word string) {
		v, was := safetext.LineCap(*s, n, ellipsis)
		*s = v
		cut[word] = cut[word] || was
	}
	line(&c.Name, MaxName, true, CutName)
	line(&c.Tagline, MaxTagline, true, CutTagline)
	line(&c.Type, MaxType, false, CutType)
	line(&c.OKFVersion, MaxVersion, false, CutVersion)
	desc, was := safetext.Cap(safetext.Block(c.Description), MaxDescription, false)
	c.Description, cut[CutDescription] = desc, cut[CutDescription] || was

	list := make(wire.ConceptList, 0, min(len(c.ConceptList), MaxConcepts))
	for _, k := range c.ConceptList {
		if len(list) == MaxConcepts {
			cut[CutConceptList] = true
			break
		}
		if len(k.URL) > MaxConceptURL {
			cut[CutConceptList] = true
			continue
		}
		k.URL = safetext.Line(k.URL)
		line(&k.Name, MaxConceptName, true, CutConceptName)
		line(&k.Summary, MaxConceptSummary, true, CutConceptSummary)
		list = append(list, k)
	}
	if c.ConceptList != nil || len(list) > 0 {
		c.ConceptList = list
	}
	if c.Repo != nil {
		sig, was := FitSignal(*c.Repo)
		c.Repo, cut[CutRepo] = &sig, cut[CutRepo] || was
	}

	budget := MaxCardBytes - cardReserve
	c.Cut = cutList(cut)
	if sizeBound(*c) <= budget {
		return // fits: no need to encode it
	}
	if size := EncodedSize(*c); size > budget {
		// Measured with the longest Cut this phase can leave.
		c.Cut = cutList(cut, CutConceptList, CutDescription)
		size = EncodedSize(*c)
		for size > budget && len(c.ConceptList) > 0 {
			c.ConceptList = c.ConceptList[:len(c.ConceptList)-1]
			cut[CutConceptList] = true
			size = EncodedSize(*c)
		}
		if size > budget {
			cut[CutDescription] = true
			c.Description = fitDescription(*c, budget)
		}
	}
	c.Cut = cutList(cut)
}

// cutList is the words of cut and also, in cutOrder.
func cutList(cut map[string]bool, also ...string) []string {
	var out []string
	for _, w := range cutOrder {
		if cut[w] || slices.Contains(also, w) {
			out = append(out, w)
		}
	}
	return out
}

// FitSignal cleans and caps the text of a repository's signals (language
// and license, MaxSignalText each, without an ellipsis: filter values), and
// reports whether it cut.
func FitSignal(sig wire.RepoSignal) (wire.RepoSignal, bool) {
	cut := false
	for _, p := range []**string{&sig.Language, &sig.License} {
		if *p != nil {
			v, was := safetext.LineCap(**p, MaxSignalText, false)
			*p, cut = &v, cut || was
		}
	}
	return sig, cut
}

// fitDescription is the longest prefix of c's description (in characters)
// with which c fits budget.
func fitDescription(c wire.Card, budget int) string {
	runes := []rune(c.Description)
	lo, hi := 0, len(runes) // lo fits (an empty description is all Fit can do)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		c.Description = string(runes[:mid])
		if EncodedSize(c) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(runes[:lo])
}

// emptyCardBytes is the JSON of a card with every text empty and every
// optional part present, with room for its numbers, cut list and
// look_alike_of: what sizeBound adds to the card's texts.
var emptyCardBytes = func() int {
	s := ""
	c := wire.Card{Source: wire.BundleSource{Repo: &s}, Repo: &wire.RepoSignal{Language: &s, License: &s, State: &s,
		PushedAt: &wire.Timestamp{}}, LookAlikeOf: &s}
	return EncodedSize(c) + 512
}()

// conceptBytes is the JSON of a concept whose texts are empty, and its comma.
const conceptBytes = len(`{"name":"","url":"","summary":""},`)

// sizeBound is at least EncodedSize(c), without encoding: each text counted
// as if every character JSON escapes took six bytes.
func sizeBound(c wire.Card) int {
	n := emptyCardBytes + len(c.ConceptList)*conceptBytes
	texts := []string{c.ID, c.Name, c.Tagline, c.Description, c.OKFVersion, c.Type, c.IndexURL, c.PageURL, c.API,
		string(c.Source.Origin), c.Source.Via, c.Source.URL, c.Source.Host, c.Source.Dir, c.Source.Path}
	for _, p := range []*string{c.Source.Repo, c.LookAlikeOf} {
		if p != nil {
			texts = append(texts, *p)
		}
	}
	if c.Repo != nil {
		for _, p := range []*string{c.Repo.State, c.Repo.Language, c.Repo.License} {
			if p != nil {
				texts = append(texts, *p)
			}
		}
	}
	for _, k := range c.ConceptList {
		texts = append(texts, k.Name, k.URL, k.Summary)
	}
	for _, t := range texts {
		n += len(t)
		for i := 0; i < len(t); i++ {
			switch b := t[i]; {
			case b < 0x20, b == '"', b == '\\', b == '<', b == '>', b == '&':
				n += 5 // \u003c and the like
			case b == 0xe2:
				n += 3 // U+2028 and U+2029 (three bytes) become six
			}
		}
	}
	return n
}

// EncodedSize is the length of c's JSON as encoding/json writes it (HTML
// characters escaped, the longest of the API's encodings), without its
// snippet.
func EncodedSize(c wire.Card) int {
	c.Snippet = nil
	b, err := json.Marshal(c)
	if err != nil {
		return math.MaxInt
	}
	return len(b)
}

// Cut reports whether c says that field was cut.
func Cut(c wire.Card, field string) bool { return slices.Contains(c.Cut, field) }

// SignalError is a repository signal out of range: the repository fails,
// not the batch it was read with.
type SignalError struct {
	Field string // stars or forks
	Value int64
}

func (e *SignalError) Error() string {
	return fmt.Sprintf("repository signal %s = %d is outside 0..%d", e.Field, e.Value, MaxSignal)
}

// CheckSignal checks the counts of a repository's signals: stars and forks
// are whole numbers from 0 to MaxSignal.
func CheckSignal(stars, forks int64) error {
	for _, f := range []struct {
		name string
		v    int64
	}{{"stars", stars}, {"forks", forks}} {
		if f.v < 0 || f.v > MaxSignal {
			return &SignalError{Field: f.name, Value: f.v}
		}
	}
	return nil
}
