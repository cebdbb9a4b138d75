package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// validSnippet reports what is wrong with a search item's snippet as the
// contract states it, nil when nothing: a known field, plain text of at
// most wire.MaxSnippetRunes code points, and highlights that are spans of
// the text ([start, end) in code points), non-empty, in order and not
// overlapping; never null.
func validSnippet(s *wire.Snippet) error {
	switch s.Field {
	case "name", "tagline", "description", "concepts":
	default:
		return fmt.Errorf("field %q", s.Field)
	}
	if !utf8.ValidString(s.Text) {
		return fmt.Errorf("text is not UTF-8")
	}
	n := utf8.RuneCountInString(s.Text)
	if n == 0 || n > wire.MaxSnippetRunes {
		return fmt.Errorf("text of %d code points", n)
	}
	if s.Highlights == nil {
		return fmt.Errorf("highlights null")
	}
	last := 0
	for i, h := range s.Highlights {
		if h[0] < last || h[1] <= h[0] || h[1] > n {
			return fmt.Errorf("highlight %d %v: out of order, empty, overlapping or past the text (%d code points)", i, h, n)
		}
		last = h[1]
	}
	return nil
}

// FuzzValidSnippet checks validSnippet against slicing: a snippet it
// accepts has spans that cut the text into pieces that join back into it.
func FuzzValidSnippet(f *testing.F) {
	f.Add("A guide to kubernetes operators", 11, 21, 22, 31)
	f.Add("naïve café ☕ notes", 0, 5, 6, 10)
	f.Add("", 0, 0, 0, 0)
	f.Add("abc", 2, 1, 1, 3)
	f.Fuzz(func(t *testing.T, text string, a, b, c, d int) {
		s := &wire.Snippet{Field: "description", Text: text, Highlights: [][2]int{{a, b}, {c, d}}}
		if validSnippet(s) != nil {
			return
		}
		runes := []rune(text)
		var joined strings.Builder
		last := 0
		for _, h := range s.Highlights {
			joined.WriteString(string(runes[last:h[0]]))
			joined.WriteString(string(runes[h[0]:h[1]]))
			last = h[1]
		}
		joined.WriteString(string(runes[last:]))
		if joined.String() != text {
			t.Errorf("accepted %+v, but its spans do not cut the text", s)
		}
	})
}

// suggestFixture is an API over bundles whose names a search can mistype:
// "OKF Org" (owner acme, so that q "okfarg" finds nothing), and twelve
// "Recipe notes" that any search for "recipe" finds.
func suggestFixture(t *testing.T, variant string) *testAPI {
	t.Helper()
	a := newAPI(t, variant)
	ins := []store.BundleInput{repoBundle("acme", "org-handbook", "index.md", wire.Card{Name: "OKF Org", OKFVersion: "0.1",
		Tagline: "How the organisation works", Description: "Handbook of the organisation: hiring, reviews, releases."}, signal(3, "Go", "MIT"))}
	for i := range 12 {
		ins = append(ins, repoBundle("cook", fmt.Sprintf("recipes-%02d", i), "index.md", wire.Card{Name: fmt.Sprintf("Recipe notes %02d", i),
			OKFVersion: "0.2", Description: "Bread, soup and recipe cards for every season."}, signal(i, "Python", "MIT")))
	}
	upsert(t, a.store, ins...)
	recount(t, a.store)
	return a
}

func TestSearchSnippet(t *testing.T) {
	t.Parallel()
	a := suggestFixture(t, config.VariantBase)
	for _, query := range []string{"q=recipe", "q=organisation", "q=handbook+hiring", "q=recipe&sort=name", "q=recipe&offset=5"} {
		page := a.search(query)
		if len(page.Items) == 0 {
			t.Errorf("%s: nothing found", query)
		}
		for _, it := range page.Items {
			if it.Snippet == nil {
				continue // the store gives one where a passage matched (issue 23)
			}
			if err := validSnippet(it.Snippet); err != nil {
				t.Errorf("%s: %s: snippet %+v: %v", query, it.ID, it.Snippet, err)
			}
		}
	}
	// Without q, no item carries one; nor does a card.
	for _, it := range a.search("sort=name").Items {
		if it.Snippet != nil {
			t.Errorf("a search without q: %s carries a snippet %+v", it.ID, it.Snippet)
		}
		var card map[string]any
		a.get("/api/bundles/"+it.ID, 200, &card)
		if _, ok := card["snippet"]; ok {
			t.Errorf("card %s carries a snippet", it.ID)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	t.Parallel()
	a := suggestFixture(t, config.VariantBase)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"q=okfarg", []string{"OKF Org"}},                        // a typo of a name, nothing found
		{"q=okfarg&language=Go&sort=stars", []string{"OKF Org"}}, // other parameters change nothing
		{"q=recipe+notez+03", []string{"Recipe notes 03"}},       // closest first
		{"q=recipes+notes+03", []string{"Recipe notes 03"}},      // one bundle holds q whole
		{"q=recipe", nil},           // plenty found
		{"q=okf+org", nil},          // the name itself
		{"q=okfarg&offset=24", nil}, // not a first page
		{"language=Go", nil},        // no q
	} {
		page := a.search(c.query)
		got := page.DidYouMean
		if len(c.want) > 0 && len(got) > 0 {
			got = got[:min(len(got), len(c.want))] // the closest; others may follow
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: did_you_mean %q, want %q first", c.query, page.DidYouMean, c.want)
		}
		if len(page.DidYouMean) > store.MaxSuggestions {
			t.Errorf("%s: %d suggestions", c.query, len(page.DidYouMean))
		}
	}
	// A suggestion found is what it promised: searched, it finds its bundle first.
	if page := a.search("q=" + url.QueryEscape("OKF Org") + "&sort=relevance"); len(page.Items) == 0 || page.Items[0].Name != "OKF Org" {
		t.Errorf("searching the suggestion: %+v", pageIDs(page))
	}
	// The web page offers it as a link to the same search with q replaced
	// (a q one bundle holds whole: one that none does lists the
	// suggestion's bundles, TestSearchFindsItsCorrection).
	body := string(a.get("/?q=recipes+notes+03&language=Python", 200, nil))
	if !strings.Contains(body, `Did you mean <a href="/?language=Python&amp;q=Recipe&#43;notes&#43;03">Recipe notes 03</a>`) {
		t.Errorf("the search page does not offer the suggestion:\n%s", body)
	}
	if body := string(a.get("/?q=recipe", 200, nil)); strings.Contains(body, "Did you mean") {
		t.Error("the search page offers a suggestion for a search that finds plenty")
	}
}

// TestSearchFindsItsCorrection: a first page on which no bundle holds
// every word of q lists what its closest suggestion finds, and says so in
// corrected_q; its next page is that q's. A word of q a letter from a word
// of names is corrected so when no whole name is near q and no bundle holds
// that word. A q some bundle holds whole is never replaced.
func TestSearchFindsItsCorrection(t *testing.T) {
	t.Parallel()
	a := suggestFixture(t, config.VariantBase)
	for _, c := range []struct {
		query, corrected, first string // first: the first item's name, "" for any
		found                   bool   // uncorrected: q finds bundles
	}{
		{"q=okfarg", "OKF Org", "OKF Org", false},                          // a name
		{"q=okfarg&language=Go&sort=stars", "OKF Org", "OKF Org", false},   // other parameters kept
		{"q=recipz", "recipe", "", false},                                  // a word of names
		{"q=recipe+notez+03", "Recipe notes 03", "Recipe notes 03", false}, // found partly, a name near
		{"q=handbok+hiring", "handbook hiring", "OKF Org", false},          // found partly, "handbok" held by none
		{"q=recipe+hiring", "", "", true},                                  // found partly, every word held
		{"q=recipz+hiring", "", "", true},                                  // found partly, no bundle holds the correction whole
		{"q=recipz&language=Go", "", "", false},                            // the correction finds nothing either
		{"q=qqqzzzxxx", "", "", false},                                     // nothing near
		{"q=okfarg&offset=24", "", "", false},                              // not a first page
	} {
		page := a.search(c.query)
		got := ""
		if page.CorrectedQ != nil {
			got = *page.CorrectedQ
		}
		if got != c.corrected {
			t.Errorf("%s: corrected_q %q, want %q", c.query, got, c.corrected)
			continue
		}
		if c.corrected == "" {
			if c.found != (len(page.Items) > 0) {
				t.Errorf("%s: %d items", c.query, len(page.Items))
			}
			continue
		}
		if len(page.Items) == 0 || c.first != "" && page.Items[0].Name != c.first {
			t.Errorf("%s: items %v, want %q first", c.query, pageIDs(page), c.first)
		}
		if len(page.DidYouMean) == 0 || page.DidYouMean[0] != c.corrected {
			t.Errorf("%s: did_you_mean %q, want %q first", c.query, page.DidYouMean, c.corrected)
		}
	}
	// A correction no bundle holds whole is offered, not listed.
	if page := a.search("q=recipz+hiring"); !slices.Equal(page.DidYouMean, []string{"recipe hiring"}) {
		t.Errorf("q=recipz+hiring: did_you_mean %q", page.DidYouMean)
	}
	// The correction's next page is the correction's own.
	page := a.search("q=recipz&limit=5")
	if page.Next == nil || !strings.Contains(*page.Next, "q=recipe&") || len(page.Items) != 5 {
		t.Fatalf("q=recipz&limit=5: next %v, %d items", page.Next, len(page.Items))
	}
	// The web page shows the correction in its box and says what was typed.
	body := string(a.get("/?q=recipz", 200, nil))
	for _, want := range []string{`No bundle matches <q>recipz</q>. Showing results for <q>recipe</q>.`, `value="recipe"`, `notes 00`} {
		if !strings.Contains(body, want) {
			t.Errorf("the search page of q=recipz lacks %q:\n%s", want, body)
		}
	}
}

// TestSearchToolAnswersAsREST: search_bundles answers the JSON of GET
// /api/bundles, did_you_mean and snippets included.
func TestSearchToolAnswersAsREST(t *testing.T) {
	t.Parallel()
	a := suggestFixture(t, config.VariantFull)
	session := mcpSession(t, a)
	for _, args := range []map[string]any{{"q": "okfarg"}, {"q": "recipe", "limit": 5}, {"q": "recipe notez 03", "language": "Python"}} {
		res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_bundles", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("search_bundles %v: %v %+v", args, err, res)
		}
		structured, _ := json.Marshal(res.StructuredContent)
		q := url.Values{}
		for k, v := range args {
			q.Set(k, fmt.Sprint(v))
		}
		rest := a.get("/api/bundles?"+q.Encode(), 200, nil)
		if !jsonEqual(t, rest, structured) {
			t.Errorf("search_bundles %v:\n got %s\nwant %s", args, structured, rest)
		}
		if args["q"] == "okfarg" && !strings.Contains(string(structured), `"did_you_mean":["OKF Org"]`) {
			t.Errorf("search_bundles %v: no did_you_mean in %s", args, structured)
		}
	}
}
