package okf

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// base is the bundle directory of testRoot.
const base = "https://example.com/kb/okf/"

// wantConcepts asserts a card's concept count and list.
func wantConcepts(t *testing.T, card Card, count int, list ...Concept) {
	t.Helper()
	if card.Concepts != count {
		t.Errorf("concepts = %d, want %d", card.Concepts, count)
	}
	if !slices.Equal(card.ConceptList, list) {
		t.Errorf("concept list:\n got %+v\nwant %+v", card.ConceptList, list)
	}
}

// conceptNamed finds a listed concept by name.
func conceptNamed(t *testing.T, card Card, name string) Concept {
	t.Helper()
	for _, c := range card.ConceptList {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no concept %q in %+v", name, card.ConceptList)
	return Concept{}
}

func TestListEntries(t *testing.T) {
	card := parseBody(t, `# T

- [Dash](dash.md) - dash separator
* [En](en.md) – en dash
+ [Em](em.md) — em dash
1. [Colon](colon.md): colon separator
2) [Dot](dot.md) · middle dot
- [Bare](bare.md)
- [Plain](plain.md) no separator
- [Double](double.md) -- two dashes
   - [Nested](nested/deeper.md) - nested three levels
     1. [Deep](deep.md) - ordered inside
- [Loose](loose.md) - loose item

  with a second paragraph
`)
	wantConcepts(t, card, 11,
		Concept{"Dash", base + "dash.md", "dash separator"},
		Concept{"En", base + "en.md", "en dash"},
		Concept{"Em", base + "em.md", "em dash"},
		Concept{"Colon", base + "colon.md", "colon separator"},
		Concept{"Dot", base + "dot.md", "middle dot"},
		Concept{"Bare", base + "bare.md", ""},
		Concept{"Plain", base + "plain.md", "no separator"},
		Concept{"Double", base + "double.md", "- two dashes"},
		Concept{"Nested", base + "nested/deeper.md", "nested three levels"},
		Concept{"Deep", base + "deep.md", "ordered inside"},
		Concept{"Loose", base + "loose.md", "loose item"},
	)
}

func TestSummaryIsRestOfFirstLine(t *testing.T) {
	card := parseBody(t, "- [A](a.md) - first line *with* `code` and [a link](x.md)\n  second line is not summary\n- [B](b.md)  \\\n  after a hard break\n")
	wantConcepts(t, card, 2,
		Concept{"A", base + "a.md", "first line with code and a link"},
		Concept{"B", base + "b.md", ""},
	)
	// MauricioPerera/carta-style summaries wrapping onto a second line keep
	// only the first.
	card = parseBody(t, "- [C](c.md) — Starts here\n  and wraps.\n")
	wantConcepts(t, card, 1, Concept{"C", base + "c.md", "Starts here"})
}

func TestNonLinkBulletsIgnored(t *testing.T) {
	card := parseBody(t, "- plain bullet\n- `code` then [link](a.md)\n- 📰 [emoji first](b.md)\n- **Bold** then [link](c.md)\n- <a href=\"d.md\">html</a>\n- [](empty-text.md)\n- [ref-less][nowhere]\n")
	wantConcepts(t, card, 0)
	// eloybar/okf-skills: "Not yet specified" lists backticked paths.
	if got := mustParseCorpus(t, "eloybar__okf-skills/docs/okf/index.md").Concepts; got != 10 {
		t.Errorf("eloybar concepts = %d, want 10", got)
	}
}

func TestBoldBulletsAreNotEntries(t *testing.T) {
	// saschb2b bundles/okf: "- **To write a bundle...**, read [your first
	// bundle](...)" is prose, not an entry; only the 7 link-first bullets are.
	card := mustParseCorpus(t, "saschb2b__okf-bundles/bundles/okf/index.md")
	if card.Concepts != 7 {
		t.Errorf("concepts = %d, want 7", card.Concepts)
	}
	for _, c := range card.ConceptList {
		if strings.Contains(c.URL, "practice/first-bundle.md") || strings.HasSuffix(c.URL, "/overview.md") {
			t.Errorf("prose link listed as a concept: %+v", c)
		}
	}
}

func TestBoldWrappedLinkIsEntry(t *testing.T) {
	card := parseBody(t, "- **[Bold](bold.md)** - wrapped\n- *[Em](em.md)*: wrapped\n- ~~[Old](old.md)~~ gone\n- **[Part](p.md) and more**, rest\n")
	wantConcepts(t, card, 4,
		Concept{"Bold", base + "bold.md", "wrapped"},
		Concept{"Em", base + "em.md", "wrapped"},
		Concept{"Old", base + "old.md", "gone"},
		Concept{"Part", base + "p.md", "and more, rest"},
	)
}

func TestTwoLinksOnOneBullet(t *testing.T) {
	// FastEndpoints: "* [Dependencies](dependencies.md) · [Gotchas](gotchas.md) · [Maintenance](maintenance.md)"
	// gives one entry, its first link; the rest of the line is the summary.
	card := mustParseCorpus(t, "FastEndpoints__FastEndpoints/.okf/index.md")
	if card.Concepts != 8 {
		t.Errorf("concepts = %d, want 8", card.Concepts)
	}
	dir := gh + "FastEndpoints/FastEndpoints/HEAD/.okf/"
	if c := conceptNamed(t, card, "Dependencies"); c != (Concept{"Dependencies", dir + "dependencies.md", "Gotchas · Maintenance"}) {
		t.Errorf("concept = %+v", c)
	}
	if c := conceptNamed(t, card, "Monorepo Packages"); c.Summary != "Generated Code" {
		t.Errorf("concept = %+v", c)
	}
	// The "Maintenance" link of the Authority paragraph is not an entry.
	if !slices.Contains(card.Links, "maintenance.md") || slices.ContainsFunc(card.ConceptList, func(c Concept) bool { return c.Name == "Maintenance" }) {
		t.Errorf("links %v, concepts %+v", card.Links, card.ConceptList)
	}
	// FirebaseUI-Android: a second link with a #fragment on the same bullet.
	card = mustParseCorpus(t, "firebase__FirebaseUI-Android/okf-bundle/index.md")
	c := conceptNamed(t, card, "Change authoring workflow")
	if c.Summary != "verified product change loop (unit-focused → area-focused review → commit); § validation evidence (blocking)" {
		t.Errorf("summary = %q", c.Summary)
	}
}

func TestMixedAbsoluteAndRelativeLinksOnOneBullet(t *testing.T) {
	// invertase/react-native-firebase: "/testing/..." first, then relative
	// "testing/...#fragment" links in the summary.
	card := mustParseCorpus(t, "invertase__react-native-firebase/okf-bundle/index.md")
	dir := gh + "invertase/react-native-firebase/HEAD/okf-bundle/"
	c := conceptNamed(t, card, "Change authoring workflow")
	want := Concept{"Change authoring workflow", dir + "testing/change-authoring-workflow.md",
		"verified product change loop (unit-focused → area-focused review → commit); § validation evidence (blocking); coverage evidence package"}
	if c != want {
		t.Errorf("concept:\n got %+v\nwant %+v", c, want)
	}
	if card.Concepts != 18 {
		t.Errorf("concepts = %d, want 18", card.Concepts)
	}
}

func TestSummaryKeepsInlineLinkText(t *testing.T) {
	card := mustParseCorpus(t, "jkroepke__okf-crossplane-v2/catalog/index.md")
	want := "Route through API and provider contracts, pipeline and security, and the mandatory testing and packaging gate."
	if got := card.ConceptList[0].Summary; got != want {
		t.Errorf("summary = %q", got)
	}
}

func TestTagBetweenLinkAndSeparator(t *testing.T) {
	// findstring-62526408826 writes "[Agent](/agents/agent.md) `[Overview]` - ...":
	// the summary is the text after the link, tag included (no separator
	// leads it, so none is removed).
	card := mustParseCorpus(t, "_unattributed__findstring-62526408826/index.md")
	if got := conceptNamed(t, card, "Agent").Summary; got != "[Overview] - The loop, planning, subagents, tools, and memory that turn an LLM into a task-completing agent." {
		t.Errorf("summary = %q", got)
	}
}

func TestLinkTextInBackticks(t *testing.T) {
	// 4i7/LLM-News-Memo: [`state/llm-news-ledger-template.md`](../state/...).
	card := mustParseCorpus(t, "4i7__LLM-News-Memo/okf/index.md")
	want := Concept{"state/llm-news-ledger-template.md", gh + "4i7/LLM-News-Memo/HEAD/state/llm-news-ledger-template.md", ""}
	if got := card.ConceptList[3]; got != want {
		t.Errorf("concept 3 = %+v, want %+v", got, want)
	}
	card = parseBody(t, "- [`x` and *y* with ![img](i.png)](a.md)\n")
	wantConcepts(t, card, 1, Concept{"x and y with", base + "a.md", ""})
}

func TestLinksInCodeFencesIgnored(t *testing.T) {
	// awesome-flexloop bundles/agnes-ai: the learning path inside ``` fences
	// is full of links; only the table rows count.
	card := mustParseCorpus(t, "awesome-flexloop__awesome-okf/bundles/agnes-ai/index.md")
	if card.Concepts != 2 {
		t.Errorf("concepts = %d, want 2", card.Concepts)
	}
	// Outside the fences: the two table links and one in prose.
	want := []string{"agnes-ai-models/index.md", "gode-agents/index.md", "agnes-ai-models/examples/agent-workflow.md"}
	if !slices.Equal(card.Links, want) {
		t.Errorf("links = %q, want %q", card.Links, want)
	}
	card = parseBody(t, "```\n- [Fenced](f.md)\n```\n\n~~~\n- [Tilde](t.md)\n~~~\n\n    - [Indented](i.md)\n\n- `[Span](s.md)` - code\n- [Real](r.md)\n")
	wantConcepts(t, card, 1, Concept{"Real", base + "r.md", ""})
	if !slices.Equal(card.Links, []string{"r.md"}) {
		t.Errorf("links = %v", card.Links)
	}
}

func TestWikilinksIgnored(t *testing.T) {
	card := parseBody(t, "- [[Wiki Page]] - a wikilink\n- [[Page|Alias]]\n- [[Ref]]\n- [Real](real.md)\n\n[Ref]: ref.md\n")
	wantConcepts(t, card, 1, Concept{"Real", base + "real.md", ""})
	// urbanhobbit/bilgi-llm-wiki: the repo-root wiki index is all
	// [[wikilinks]] and declares no okf_version.
	if _, err := parseCorpus(t, "urbanhobbit__bilgi-llm-wiki/index.md"); err == nil {
		t.Error("wiki index parsed as a bundle")
	}
}

func TestImagesIgnored(t *testing.T) {
	card := parseBody(t, "- ![diagram](d.png) - an image\n- [![badge](b.svg)](https://ci.example/x)\n- [Real](r.md) ![icon](i.png) after\n")
	wantConcepts(t, card, 1, Concept{"Real", base + "r.md", "after"})
	if !slices.Equal(card.Links, []string{"r.md"}) {
		t.Errorf("links = %v (images are not links)", card.Links)
	}
}

func TestTableEntries(t *testing.T) {
	card := parseBody(t, `| Name | Kind | Summary |
|------|------|---------|
| [A](a.md) | metric | First |
| plain | no | link |
| see [B](b/) here | table | Second |
| `+"`[C](c.md)`"+` | code | ignored |
| [D](d.md) |  | only |
| [**E**](e.md) |
`)
	wantConcepts(t, card, 4,
		Concept{"A", base + "a.md", "metric · First"},
		Concept{"B", base + "b/index.md", "table · Second"},
		Concept{"D", base + "d.md", "only"},
		Concept{"E", base + "e.md", ""},
	)
	card = parseBody(t, "| [Header](h.md) | x |\n|---|---|\n| [Row](r.md) | y |\n")
	wantConcepts(t, card, 1, Concept{"Row", base + "r.md", "y"})
	// SatohaCC/PharmacyDomain lists its guides only in a table; one row has
	// no link.
	card = mustParseCorpus(t, "SatohaCC__PharmacyDomain/okf/index.md")
	if card.Concepts != 4 || card.ConceptList[3].Name != "コードレビューの方針" {
		t.Errorf("concepts = %d %+v", card.Concepts, card.ConceptList)
	}
	// The rite wiki's five-column table: all other cells form the summary.
	card = mustParseCorpus(t, "_unattributed__findstring-59527638711/index.md")
	if s := card.ConceptList[1].Summary; !strings.HasPrefix(s, "heuristics · rite の build/test/lint") || !strings.HasSuffix(s, " · 2026-09-02T10:30:00+00:00 · medium") {
		t.Errorf("summary = %q", s)
	}
	// wfukatsu/OKF-ScalarDB-ScalarDL: list items and table rows together.
	card = mustParseCorpus(t, "wfukatsu__OKF-ScalarDB-ScalarDL/okf/index.md")
	want := Concept{"ScalarDB", gh + "wfukatsu/OKF-ScalarDB-ScalarDL/HEAD/okf/products/scalardb/index.md", "3.19 · 3.19, 3.18, 3.17, 3.16, 3.15, 3.14 · 1189"}
	if card.Concepts != 7 || card.ConceptList[3] != want {
		t.Errorf("concepts = %d, concept 3 = %+v", card.Concepts, card.ConceptList[3])
	}
}

func TestUnescapedSpacesInLinkTargetsAreNotLinks(t *testing.T) {
	// essamrafie/okf-converter: "[AI Quick Wins Table](/Generative_AI_Strategy/Material/AI Quick Wins Table.md)"
	// is not a link in CommonMark (nor on GitHub); the five /x.md entries are.
	card := mustParseCorpus(t, "essamrafie__okf-converter/okf-bundle/index.md")
	if card.Concepts != 5 {
		t.Errorf("concepts = %d, want 5", card.Concepts)
	}
	card = parseBody(t, "- [Spaces](a b.md)\n- [Escaped](a%20b.md)\n- [Angle](<c d.md>)\n")
	wantConcepts(t, card, 2,
		Concept{"Escaped", base + "a%20b.md", ""},
		Concept{"Angle", base + "c%20d.md", ""},
	)
}

func TestDuplicateTargetsCountedOnce(t *testing.T) {
	// claudiobottari/databricks-okf lists 6,064 entries over 5,120 files;
	// "30-Day Lookback Window" and "30-Day Lookback Window Limitation" both
	// point at /concepts/30-day-lookback-window.md.
	card := mustParseCorpus(t, "claudiobottari__databricks-okf/index.md")
	if card.Concepts != 5120 || len(card.ConceptList) != MaxConceptList || card.Truncated {
		t.Errorf("concepts = %d, list %d, truncated %v", card.Concepts, len(card.ConceptList), card.Truncated)
	}
	c := conceptNamed(t, card, "30-Day Lookback Window")
	if c.URL != gh+"claudiobottari/databricks-okf/HEAD/concepts/30-day-lookback-window.md" {
		t.Errorf("url = %s", c.URL)
	}
	for _, c := range card.ConceptList {
		if c.Name == "30-Day Lookback Window Limitation" {
			t.Errorf("duplicate target listed twice: %+v", c)
		}
	}
	card = parseBody(t, "- [A](a.md)\n- [A again](./a.md)\n- [A part](a.md#part)\n- [A abs](/a.md)\n- [B](b.md#x)\n- [B](b.md#y)\n")
	wantConcepts(t, card, 2, Concept{"A", base + "a.md", ""}, Concept{"B", base + "b.md#x", ""})
}

func TestConceptListCappedAt24(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "- [C%d](c%d.md)\n", i, i)
	}
	card := parseBody(t, b.String())
	if card.Concepts != 30 || len(card.ConceptList) != 24 || card.ConceptList[23].Name != "C23" {
		t.Errorf("concepts = %d, list = %d", card.Concepts, len(card.ConceptList))
	}
}

func TestLinksField(t *testing.T) {
	card := parseBody(t, `# T [home](./index.md)

See [a](a.md#x), [a again](a.md#y), [dir](sub/), [abs](/b.md), [up](../c.md?q=1),
[web](https://example.org/x.md), [proto](//cdn.example/x), [mail](mailto:x@y.z), [self](#top), [empty]().

- [Entry](e.md) - and <https://auto.example/link>

| [T](t.md) |
|---|
| [U](u.md) |

[ref]: r.md "title"
[Ref link][ref]
`)
	want := []string{"./index.md", "a.md", "sub/", "/b.md", "../c.md?q=1", "e.md", "t.md", "u.md", "r.md"}
	if !slices.Equal(card.Links, want) {
		t.Errorf("links:\n got %q\nwant %q", card.Links, want)
	}
}

func TestProseLinksAreNotEntries(t *testing.T) {
	// Intros full of inline links, <autolinks>, numbered steps that start
	// with text, and "History in [log](/log.md)." paragraphs.
	for key, want := range map[string]int{
		"xcspl__mikrotik-docs-okf/index.md":                  24,
		"saschb2b__okf-bundles/bundles/blockchain/index.md":  5,
		"saschb2b__okf-bundles/bundles/rezepte/index.md":     48,
		"Quitetall__tritium/okf/index.md":                    3,
		"leavingme__x-news-wiki/index.md":                    2,
		"chris-page-gov__okf-uk-legislation/bundle/index.md": 4,
	} {
		card := mustParseCorpus(t, key)
		if card.Concepts != want {
			t.Errorf("%s: concepts = %d, want %d", key, card.Concepts, want)
		}
		for _, c := range card.ConceptList {
			if strings.Contains(c.URL, "mikrotik.com") || strings.HasSuffix(c.URL, "/log.md") || strings.HasSuffix(c.URL, "/overview.md") {
				t.Errorf("%s: prose link listed: %+v", key, c)
			}
		}
	}
}

func TestLinkTextAsWritten(t *testing.T) {
	// floegence/redeven: "[Gateway v2 protocol](protocol/gateway-v1-protocol.md)";
	// the name is the link text even when it disagrees with the target.
	_, body, err := splitFrontmatter(readCorpus(t, "floegence__redeven/okf/index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range scanBody(parseMarkdown(body)).entries {
		if e.dest() == "protocol/gateway-v1-protocol.md" {
			if e.name() != "Gateway v2 protocol" || e.summary() != "Signed Gateway HTTP JSON access and Runtime lifecycle contract." {
				t.Errorf("entry %q: %q", e.name(), e.summary())
			}
			return
		}
	}
	t.Error("entry not found")
}
