package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// findsFixture writes bundles whose words people type in other forms than
// the bundles hold them, and a few bundles that hold none of them.
func findsFixture(t *testing.T) (*store.Store, map[string]string) {
	t.Helper()
	s, clk := newStore(t)
	ids := map[string]string{}
	add := func(short string, in store.BundleInput) {
		mustUpsert(t, s, in)
		ids[in.ID] = short
		clk.Advance(60e9)
	}
	py := repoBundle("pyguild", "PythonTips", "index.md")
	py.Card.Name, py.Card.Tagline = "Python Tips", "Idioms for everyday code"
	py.Card.Description = "## About\n\nAll about the *decorator* pattern and [context managers](cm.md)."
	add("python", py)

	hydro := repoBundle("geo", "hydro", "index.md")
	hydro.Card.Name, hydro.Card.Tagline = "Hydrology Notes", "Rivers and rain"
	add("hydro", hydro)

	pharmacy := repoBundle("SatohaCC", "PharmacyDomain", "okf/index.md")
	pharmacy.Card.Name, pharmacy.Card.Tagline = "PharmacyDomain Knowledge Base", "プロジェクトの設計ガイドライン"
	pharmacy.Card.Description = "Domain model for pharmacies."
	add("pharmacy", pharmacy)

	router := repoBundle("net", "mikrotik-docs", "index.md")
	router.Card.Name, router.Card.Tagline = "RouterOS Reference", "Firewall and routing for MikroTik"
	add("router", router)

	rn := repoBundle("invertase", "react-native-firebase", "index.md")
	rn.Card.Name, rn.Card.Tagline = "React Native Firebase", "Firebase for React Native apps"
	add("rn", rn)

	fin := repoBundle("casa", "contas", "index.md")
	fin.Card.Name, fin.Card.Tagline = "Finanças pessoais", "Notas sobre orçamento da família"
	fin.Card.Description = "Como organizar as finanças da casa."
	add("financas", fin)

	llm := repoBundle("agnes", "models", "index.md")
	llm.Card.Name, llm.Card.Tagline = "Agnes AI", "关于大模型研究的知识库"
	add("llm", llm)

	kube := repoBundle("ops", "cluster", "index.md")
	kube.Card.Name, kube.Card.Tagline = "Kubernetes Operators", "Running stateful services"
	add("kube", kube)

	// The repository's camelCase is only in its URL: source.repo is
	// lowercase, as the indexer writes it.
	kg := repoBundle("DreamLab-AI", "knowledgeGraph", "okf/index.md")
	kg.Card.Name, kg.Card.Tagline = "NarrativeGoldmine Knowledge Bundle", "Stories mined for structure"
	kg.Card.Description, kg.Card.ConceptList, kg.Card.Concepts = "Narratives.", nil, 0
	add("kg", kg)

	cpp := repoBundle("tmpl", "templates", "index.md")
	cpp.Card.Name, cpp.Card.Tagline = "Modern C++ Templates", "Metaprogramming in C++20"
	add("cpp", cpp)
	cs := repoBundle("dotnet-guild", "async", "index.md")
	cs.Card.Name, cs.Card.Tagline = "C# Async Patterns", "Tasks and cancellation in .NET"
	add("csharp", cs)
	c64 := repoBundle("retro", "c64", "index.md")
	c64.Card.Name, c64.Card.Tagline = "C64 Assembly", "The 6502 of the Commodore 64"
	add("c64", c64)

	for _, n := range []string{"alpha", "beta", "gamma"} {
		other := repoBundle("misc", n, "index.md")
		other.Card.Name, other.Card.Tagline = "Misc "+n, "Unrelated notes on cooking"
		add("other", other)
	}
	return s, ids
}

// The ways people and agents type that an exact-word search missed (issue
// 23): each finds its bundle first by relevance, and within the first
// results of the API's default order.
func TestSearchFindsWhatPeopleType(t *testing.T) {
	t.Parallel()
	s, ids := findsFixture(t)
	for _, tc := range []struct{ q, want string }{
		{"decorators", "python"},                   // plural of a description word
		{"Hydrology Note", "hydro"},                // singular of a name word
		{"psychology hydrology notes", "hydro"},    // a word too many
		{"how to use python decorators", "python"}, // a question
		{"pharmacy", "pharmacy"},                   // a part of a glued name
		{"router", "router"},                       // RouterOS
		{"react-native", "rn"},                     // hyphenated
		{"reactnative", "rn"},                      // typed glued: begins the repository's name glued
		{"reactnativefirebase ", "rn"},             // the repository's name glued, finished
		{"kube", "kube"},                           // typed, not finished
		{"financas", "financas"},                   // without accents
		{"orcamento familia", "financas"},          // Portuguese, stemmed and unaccented
		{"portuguese", "financas"},                 // the language it is written in
		{"大模型", "llm"},                             // Han bigrams
		{"ガイドライン", "pharmacy"},                     // Katakana
		{"https://github.com/SatohaCC/PharmacyDomain.git", "pharmacy"},
		{"github.com/satohacc/pharmacydomain/tree/main/okf", "pharmacy"},
		{"SatohaCC/PharmacyDomain", "pharmacy"},
		{"graph", "kg"},           // a part of the repository's camelCase name
		{"knowledge graph", "kg"}, // the repository's name split as it reads
		{"c++", "cpp"},            // a name written with symbols: not the "C" of C64 or C#
		{"C#", "csharp"},
		{".net", "csharp"},
		{"cpp templates", "cpp"}, // the name's word, as people also write it
	} {
		for _, sort := range []wire.Sort{wire.SortRelevance, wire.SortRecent} {
			got, err := s.Search(context.Background(), store.SearchParams{Q: tc.q, Sort: sort, Limit: 5})
			if err != nil {
				t.Fatalf("q %q sort %s: %v", tc.q, sort, err)
			}
			var short []string
			for _, b := range got {
				short = append(short, ids[b.ID])
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("q %q sort %s = %v, want nothing", tc.q, sort, short)
			case tc.want != "" && sort == wire.SortRelevance && (len(short) == 0 || short[0] != tc.want):
				t.Errorf("q %q by relevance = %v, want %s first", tc.q, short, tc.want)
			case tc.want != "" && !slices.Contains(short, tc.want):
				t.Errorf("q %q sort %s = %v, want %s among them", tc.q, sort, short, tc.want)
			}
		}
	}
}

// Words are optional by relevance: bundles holding every word come first,
// then those holding most of them; a sorted search that nothing matches
// with every word lists those holding some, and one that something matches
// lists only those.
func TestSearchWordsAreOptional(t *testing.T) {
	t.Parallel()
	s, ids := findsFixture(t)
	search := func(q string, sort wire.Sort) []string {
		got, err := s.Search(context.Background(), store.SearchParams{Q: q, Sort: sort, Limit: 20})
		if err != nil {
			t.Fatalf("q %q: %v", q, err)
		}
		var short []string
		for _, b := range got {
			short = append(short, ids[b.ID])
		}
		return short
	}
	// "notes" is in hydro's name and the others' taglines; "rivers" and
	// "rain" only in hydro's tagline.
	if got := search("rivers rain notes cooking", wire.SortRelevance); len(got) == 0 || got[0] != "hydro" {
		t.Errorf("relevance: %v, want hydro (3 of 4 words) first", got)
	}
	if got := search("rivers rain notes", wire.SortRecent); !slices.Equal(got, []string{"hydro"}) {
		t.Errorf("recent, all words held by one: %v, want [hydro]", got)
	}
	if got := search("rivers cooking", wire.SortRecent); len(got) != 4 || !slices.Contains(got, "hydro") {
		t.Errorf("recent, no bundle holds both: %v, want hydro and the three cooking ones", got)
	}
	if got := search("zzzz qqqq", wire.SortRelevance); len(got) != 0 {
		t.Errorf("no word matches: %v, want nothing", got)
	}
}

// A sorted search for any of q's words is one list in each sort: its pages
// by offset and by cursor make the whole list, each match once, in the
// sort's order, and an excluded word keeps its meaning.
func TestSearchAnyTermPages(t *testing.T) {
	t.Parallel()
	s, clk := newStore(t)
	want := map[string]bool{}
	for i := range 30 {
		in := repoBundle("acme", fmt.Sprintf("kb-%02d", i), "index.md")
		word := []string{"quokka", "narwhal", "ocelot"}[i%3]
		in.Card.Name = fmt.Sprintf("Notes %02d", (i*7)%30)
		in.Card.Tagline = "About the " + word
		if i%5 == 0 {
			in.Card.Tagline += " and the kestrel"
		}
		in.Repo.Stars = (i * 13) % 17
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
		if word != "ocelot" && i%5 != 0 {
			want[in.ID] = true
		}
	}
	ctx := context.Background()
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars} {
		p := store.SearchParams{Q: "quokka narwhal -kestrel", Sort: sort, Limit: 100}
		whole, err := s.Search(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range whole {
			if !want[b.ID] || !b.Partial || slices.Contains(got, b.ID) {
				t.Fatalf("sort %s: %s is no match, not partial, or twice", sort, b.ID)
			}
			got = append(got, b.ID)
		}
		if len(got) != len(want) {
			t.Fatalf("sort %s: %d matches, want %d", sort, len(got), len(want))
		}
		p.Limit = 5
		var byOffset, byCursor []string
		for p.Offset = 0; p.Offset < 30; p.Offset += 5 {
			page, err := s.Search(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range page {
				byOffset = append(byOffset, b.ID)
			}
		}
		p.Offset = 0
		for range 10 {
			page, err := s.Search(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range page {
				byCursor = append(byCursor, b.ID)
			}
			if len(page) < p.Limit {
				break
			}
			p.After = page[len(page)-1].Cursor
		}
		if !slices.Equal(byOffset, got) || !slices.Equal(byCursor, got) {
			t.Errorf("sort %s: by offset %v, by cursor %v, whole %v", sort, byOffset, byCursor, got)
		}
	}
}

// Every result of a q search says why it matched: a passage of the field
// that holds the words, as a reader sees it (markdown's syntax left out),
// the words marked; a search without q has none.
func TestSearchSnippets(t *testing.T) {
	t.Parallel()
	s, _ := findsFixture(t)
	got, err := s.Search(context.Background(), store.SearchParams{Q: "decorators", Sort: wire.SortRelevance})
	if err != nil || len(got) == 0 {
		t.Fatalf("search: %v, %d results", err, len(got))
	}
	want := wire.Snippet{Field: "description", Text: "About All about the decorator pattern and context managers.",
		Highlights: [][2]int{{20, 29}}}
	if sn := got[0].Snippet; sn == nil || sn.Field != want.Field || sn.Text != want.Text || !slices.Equal(sn.Highlights, want.Highlights) {
		t.Errorf("snippet = %+v, want %+v", sn, want)
	}
	all, err := s.Search(context.Background(), store.SearchParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if b.Snippet != nil {
			t.Errorf("%s: a snippet without q: %+v", b.ID, b.Snippet)
		}
	}
	if wire.MaxSnippetRunes != searchtext.SnippetRunes {
		t.Errorf("wire.MaxSnippetRunes = %d, searchtext.SnippetRunes = %d", wire.MaxSnippetRunes, searchtext.SnippetRunes)
	}
}

// The word being typed begins names and taglines words first; when that
// finds nothing, it begins any word of a bundle, its description and
// concepts too ("seism" finds the concept "Seismic Imaging"), in every
// sort, and the counts say the same. A search that finds something by the
// names, a later page past the end of a list, a 2-letter word and a
// finished word (a space after it) do not widen.
func TestSearchWidePrefix(t *testing.T) {
	t.Parallel()
	s, clk := newStore(t)
	ctx := context.Background()
	add := func(in store.BundleInput) string {
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
		return in.ID
	}
	plan := repoBundle("essam", "converter", "okf-bundle/index.md")
	plan.Card.Name, plan.Card.Tagline = "Knowledge Bundle", "Generated from a folder"
	plan.Card.Description = "Notes from the upstream aramco work."
	plan.Card.ConceptList = wire.ConceptList{{Name: "Integration Plan for Seismic Imaging", URL: "https://github.com/essam/converter/blob/main/plan.md"}}
	planID := add(plan)
	fibers := repoBundle("labs", "fibers", "index.md")
	fibers.Card.Name, fibers.Card.Tagline = "Aramid Fibers", "Materials"
	fibersID := add(fibers)
	other := repoBundle("misc", "cooking", "index.md")
	other.Card.Name, other.Card.Tagline = "Cooking Notes", "Rice and beans"
	add(other)

	for _, tc := range []struct {
		q      string
		offset int
		langs  []string
		want   []string
		some   bool // the count is of bundles holding some of q's words
	}{
		{q: "seism", want: []string{planID}},                     // only in a concept
		{q: "Seismi", want: []string{planID}},                    // any case
		{q: "imaging seism", want: []string{planID}, some: true}, // one word found: words are optional
		{q: "aram", want: []string{fibersID}},                    // a name begins with it: the name alone
		{q: "aram", offset: 5},                                   // past the end of that list: not widened
		{q: "seism", langs: []string{"rust"}},                    // the filters hold
		{q: "se"},                                                // two letters stay with names
		{q: "seism "},                                            // a finished word
	} {
		for _, sort := range []wire.Sort{wire.SortRelevance, wire.SortRecent, wire.SortName} {
			p := store.SearchParams{Q: tc.q, Sort: sort, Offset: tc.offset, Languages: tc.langs}
			got, err := s.Search(ctx, p)
			if err != nil {
				t.Fatalf("%+v: %v", p, err)
			}
			var ids []string
			for _, b := range got {
				ids = append(ids, b.ID)
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("q %q offset %d languages %v sort %s = %v, want %v", tc.q, tc.offset, tc.langs, sort, ids, tc.want)
			}
		}
		if tc.offset > 0 {
			continue
		}
		p := store.SearchParams{Q: tc.q, Languages: tc.langs}
		c, err := s.CountMatches(ctx, p)
		if err != nil || c.N != int64(len(tc.want)) || !c.Exact || c.Some != tc.some {
			t.Errorf("count of q %q languages %v = %+v, %v; want %d, exact", tc.q, tc.langs, c, err, len(tc.want))
		}
		fc, f, err := s.SearchFacets(ctx, p)
		if err != nil || fc != c || f.ByOrigin[source.OriginCodeHost] != c.N {
			t.Errorf("facets of q %q languages %v = %+v %v, %v; want the count %+v", tc.q, tc.langs, fc, f.ByOrigin, err, c)
		}
	}
	got, err := s.Search(ctx, store.SearchParams{Q: "seism"})
	if err != nil || len(got) != 1 || got[0].Snippet == nil || got[0].Snippet.Field != "concepts" || !got[0].Partial {
		t.Errorf("seism: %v, %v; want the plan, partial (did you mean still offered), with a snippet of its concepts", got, err)
	}
}

// TestSearchFindsOtherForms: a word in its other English spelling, an
// acronym spelt out or the other way round, CJK words written together,
// and a query with another language's stop word each find their bundle
// first by relevance (issue 23).
func TestSearchFindsOtherForms(t *testing.T) {
	t.Parallel()
	s, clk := newStore(t)
	ids := map[string]string{}
	add := func(short, owner, repo, name, tagline, description string, stars int) {
		in := repoBundle(owner, repo, "index.md")
		in.Card.Name, in.Card.Tagline, in.Card.Description = name, tagline, description
		in.Card.Repo.Stars = stars
		mustUpsert(t, s, in)
		ids[in.ID] = short
		clk.Advance(60e9)
	}
	add("a11y", "a11y-guild", "checklist", "Accessibility Checklist", "Color contrast and alt text", "Criteria, one by one.", 10)
	add("nlp", "hangul-dev", "korean-nlp-notes", "한국어 자연어 처리 노트", "형태소 분석", "토크나이저와 임베딩.", 10)
	add("llm", "evals", "llm-eval-kb", "LLM Eval KB", "Benchmarks and judges", "Leaderboards.", 10)
	add("tcm", "zhongyi", "herbs", "中药学笔记", "常用中药的性味归经、功效与配伍禁忌", "复习资料。", 10)
	add("bonsai", "mori", "bonsai", "盆栽の基本", "真柏とジンシャリの作り方", "樹形と手入れ。", 10)
	add("signal", "stellwerk", "signaltechnik", "Eisenbahnsignaltechnik", "Signale und Stellwerke",
		"Relaisstellwerke und die Fahrstraßenbildung.", 10)
	// A popular bundle whose tagline holds "im", a German stop word: it
	// ties on the words held with the one above, unless "im" counts less.
	add("wood", "werkstatt", "holz", "Holzverbindungen", "Verbindungen im Möbelbau", "Zinken und Zapfen.", 900)
	add("ha", "tinkerer", "ha-automations", "Home Assistant Automations", "Triggers and blueprints", "YAML recipes.", 10)
	add("other", "misc", "cooking", "Misc cooking", "Unrelated notes on cooking", "Soup.", 10)
	if err := s.Analyze(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ q, want string }{
		{"colour contrast", "a11y"},                           // British for American
		{"natural language processing", "nlp"},                // spelt out for "nlp"
		{"large language models", "llm"},                      // spelt out for "llm"
		{"nlp", "nlp"},                                        // the acronym as written
		{"中药配伍禁忌", "tcm"},                                     // Chinese words written together
		{"真柏ジンシャリ", "bonsai"},                                 // a kanji word and a katakana one together
		{"fahrstrassenbildung im relaisstellwerke", "signal"}, // "im" counts half
		{"homeassistant ", "ha"},                              // a name's two words typed glued, finished
	} {
		got, err := s.Search(context.Background(), store.SearchParams{Q: tc.q, Sort: wire.SortRelevance, Limit: 5})
		if err != nil {
			t.Fatalf("q %q: %v", tc.q, err)
		}
		var short []string
		for _, b := range got {
			short = append(short, ids[b.ID])
		}
		if len(short) == 0 || short[0] != tc.want {
			t.Errorf("q %q by relevance = %v, want %s first", tc.q, short, tc.want)
		}
	}
}
