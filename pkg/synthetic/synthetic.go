// Package synthetic makes the synthetic bundles of the query benchmark
// (pkg/store, make bench) and of the load harness (services/loadgen, make
// load): a deterministic stream for a given count, so that both measure the
// same index. It holds no I/O; the callers write the rows.
package synthetic

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Version changes whenever the generator does, so that a reused benchmark
// or load database is rebuilt.
const Version = 3

// Row is one synthetic bundle and what the benchmark loads it with as is:
// its visibility and timestamps.
type Row struct {
	In         store.BundleInput
	Visibility wire.Visibility
	IndexedAt  time.Time
	UpdatedAt  time.Time
}

// Marker words with known document frequencies, for the query shapes. Each
// shape cycles through a family of words, so that a benchmark does not
// measure one query's pages kept warm in shared buffers.
var (
	WordCommon  = "guide"                                                                                                // description of ~30% of bundles
	WordsMedium = []string{"kubernetes", "terraform", "postgres", "graphql", "webhook", "oauth", "pandas", "serverless"} // ~3% each
	WordsRare   = []string{"zanzibar", "quokka", "xylograph", "fjord", "kumquat", "yodel", "narwhal", "ocelot"}          // ~0.003% each
	WordsPairA  = []string{"data", "cloud", "security", "testing"}                                                       // ~10% each
	WordsPairB  = []string{"pipeline", "migration", "audit", "coverage"}                                                 // ~5% each; a pair in ~0.5%
	// CJKMarkers open the CJK tagline of ~0.5% of bundles each (of the 2%
	// whose tagline is in Han and Katakana characters).
	CJKMarkers = []string{"知识图谱", "大模型研究", "设计指南", "ナレッジベース"}
)

// cjkChars are what the other CJK taglines are drawn from.
var cjkChars = []rune("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严ナレッジベースプロジェクト")

// Gen makes synthetic bundles with a realistic spread: a Zipf-ish
// vocabulary (a few words in nearly every bundle, a long tail of rare ones),
// marker words at set frequencies, and repositories, versions, languages,
// licenses, types, stars, concept counts and visibilities drawn from skewed
// distributions.
type Gen struct {
	rnd   *rand.Rand
	vocab []string
	zipf  *rand.Zipf
	repos []repo
	start time.Time
	span  time.Duration
	roots []string // earlier roots, for duplicates
}

type repo struct {
	owner, name string
	sig         wire.RepoSignal
}

// New returns the generator of an index of n bundles: the same n always
// yields the same rows.
func New(n int) *Gen {
	g := &Gen{rnd: rand.New(rand.NewPCG(42, uint64(n)))}
	g.vocab = make([]string, 40000)
	syll := []string{"ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ve", "dan", "tor", "el", "is", "qua", "ber", "gon", "fi", "zu", "am", "sel"}
	for i := range g.vocab {
		var b strings.Builder
		for x := i + 1; x > 0; x /= len(syll) {
			b.WriteString(syll[x%len(syll)])
		}
		g.vocab[i] = b.String()
	}
	// Real words at the head of the distribution, as markdown has them.
	copy(g.vocab, []string{"the", "and", "of", "to", "a", "in", "for", "is", "on", "with",
		"how", "api", "docs", "notes", "project", "service", "model", "team", "policy", "agent"})
	g.zipf = rand.NewZipf(g.rnd, 1.07, 2, uint64(len(g.vocab)-1))
	nRepos := max(n/3, 10)
	langs := weighted{{"Go", 15}, {"Python", 20}, {"TypeScript", 15}, {"JavaScript", 10}, {"Rust", 5}, {"Java", 4}, {"Ruby", 2}, {"HTML", 3}, {"", 26}}
	licenses := weighted{{"MIT", 35}, {"Apache-2.0", 20}, {"GPL-3.0", 5}, {"CC-BY-4.0", 5}, {"BSD-3-Clause", 3}, {"MPL-2.0", 2}, {"", 30}}
	states := weighted{{source.StateActive, 80}, {source.StateStalled, 15}, {source.StateArchived, 5}}
	for i := range nRepos {
		r := repo{owner: g.word() + fmt.Sprint(i%97), name: g.word() + "-" + g.word()}
		r.sig = wire.RepoSignal{
			Stars: int(math.Exp(g.rnd.Float64()*g.rnd.Float64()*11)) - 1,
			Forks: g.rnd.IntN(50),
			State: ptr(states.pick(g.rnd)),
		}
		pushed := wire.Timestamp{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(g.rnd.IntN(900*24)) * time.Hour)}
		r.sig.PushedAt = &pushed
		if l := langs.pick(g.rnd); l != "" {
			r.sig.Language = ptr(l)
		}
		if l := licenses.pick(g.rnd); l != "" {
			r.sig.License = ptr(l)
		}
		g.repos = append(g.repos, r)
	}
	g.start = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	g.span = 2 * 365 * 24 * time.Hour
	return g
}

type weighted []struct {
	v string
	w int
}

func (ws weighted) pick(r *rand.Rand) string {
	total := 0
	for _, x := range ws {
		total += x.w
	}
	n := r.IntN(total)
	for _, x := range ws {
		if n < x.w {
			return x.v
		}
		n -= x.w
	}
	return ws[0].v
}

func (g *Gen) word() string { return g.vocab[g.zipf.Uint64()] }

func (g *Gen) words(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	return strings.Join(ws, " ")
}

// cjk is a tagline of two to four runs of CJK characters, 3 to 8 each.
func (g *Gen) cjk() string {
	runs := make([]string, 2+g.rnd.IntN(3))
	for i := range runs {
		run := make([]rune, 3+g.rnd.IntN(6))
		for k := range run {
			run[k] = cjkChars[g.rnd.IntN(len(cjkChars))]
		}
		runs[i] = string(run)
	}
	return strings.Join(runs, "、")
}

func (g *Gen) chance(p float64) bool { return g.rnd.Float64() < p }

// Row makes the i-th bundle. Rows must be made in order from 0: each draws
// from the generator's one random stream.
func (g *Gen) Row(i int) Row {
	name := strings.Title(g.words(1 + g.rnd.IntN(3))) //nolint:staticcheck // ASCII words
	switch {
	case g.chance(0.02):
		name += " Guide"
	case g.chance(0.02):
		name = strings.Title(WordsMedium[g.rnd.IntN(len(WordsMedium))]) + " " + name //nolint:staticcheck
	}
	tagline := ""
	switch {
	case g.chance(0.02):
		tagline = g.cjk()
		if g.chance(0.25) {
			tagline = CJKMarkers[g.rnd.IntN(len(CJKMarkers))] + tagline
		}
	case g.chance(0.5):
		tagline = g.words(4 + g.rnd.IntN(7))
	}
	desc := g.description(name)

	concepts := []int{0, 1 + g.rnd.IntN(5), 6 + g.rnd.IntN(15), 21 + g.rnd.IntN(80), 101 + g.rnd.IntN(400)}[weighted{{"0", 10}, {"1", 30}, {"2", 35}, {"3", 20}, {"4", 5}}.pick(g.rnd)[0]-'0']
	list := make(wire.ConceptList, min(concepts, okf.MaxConceptList))
	for k := range list {
		list[k] = wire.Concept{Name: strings.Title(g.words(1 + g.rnd.IntN(2))), URL: fmt.Sprintf("https://example.org/c/%d/%d.md", i, k), Summary: g.words(3 + g.rnd.IntN(6))} //nolint:staticcheck
	}
	typ := weighted{{"", 60}, {"reference", 15}, {"guide", 10}, {"runbook", 5}, {"glossary", 5}, {"playbook", 3}, {"rare-" + g.word(), 2}}.pick(g.rnd)

	in := store.BundleInput{
		Card: wire.Card{Name: name, Tagline: tagline, Description: desc, Concepts: concepts, ConceptList: list, Type: typ,
			OKFVersion: weighted{{"0.1", 55}, {"0.2", 40}, {"0.3", 3}, {"0.10", 1}, {"1.0", 1}}.pick(g.rnd)},
	}
	low := g.source(&in, i)
	in.Low = low

	vis := wire.VisibilityLive
	var root [32]byte
	for k := range root {
		root[k] = byte(g.rnd.Uint32())
	}
	in.RootSHA256 = hex.EncodeToString(root[:])
	switch {
	case low:
		vis = wire.VisibilityLow
	case len(g.roots) > 0 && g.chance(0.02):
		in.RootSHA256 = g.roots[g.rnd.IntN(len(g.roots))]
		vis = wire.VisibilityLow
	case g.chance(0.02):
		vis = wire.VisibilityHidden
	default:
		if len(g.roots) < 10000 {
			g.roots = append(g.roots, in.RootSHA256)
		}
	}
	indexed := g.start.Add(time.Duration(g.rnd.Float64() * float64(g.span)))
	updated := indexed.Add(time.Duration(g.rnd.Float64() * float64(g.start.Add(g.span).Sub(indexed))))
	return Row{In: in, Visibility: vis, IndexedAt: indexed, UpdatedAt: updated}
}

func ptr[T any](v T) *T { return &v }

// description is a row's description: a heading of name, then sentences
// to 1,000 characters, with the marker words of the workload's shapes
// drawn in near its start.
func (g *Gen) description(name string) string {
	var body strings.Builder
	body.WriteString("# " + name + "\n\n")
	for body.Len() < 1000 {
		body.WriteString(g.words(8+g.rnd.IntN(10)) + ".\n")
	}
	desc := body.String()
	var marks []string
	mark := func(w string, p float64) {
		if g.chance(p) {
			marks = append(marks, w)
		}
	}
	mark(WordCommon, 0.3)
	for _, w := range WordsMedium {
		mark(w, 0.03)
	}
	for _, w := range WordsRare {
		mark(w, 0.00003)
	}
	for _, w := range WordsPairA {
		mark(w, 0.1)
	}
	for _, w := range WordsPairB {
		mark(w, 0.05)
	}
	if len(marks) > 0 {
		desc = desc[:40] + " " + strings.Join(marks, " ") + " " + desc[40:]
	}
	desc = desc[:1000]
	return desc
}

// source gives row i its id, URLs and source: a domain bundle (15%) or a
// bundle of one of the generator's repositories; it reports whether the
// path makes it low.
func (g *Gen) source(in *store.BundleInput, i int) (low bool) {
	if g.chance(0.15) {
		host := g.word() + fmt.Sprint(g.rnd.IntN(1000)) + ".example"
		dir := g.word()
		if g.chance(0.04) {
			dir = "examples/" + dir
		}
		site := source.Site{URL: fmt.Sprintf("https://%s/%s/index.md", host, dir)}
		in.ID, in.IndexURL, in.PageURL = fmt.Sprintf("%s-%d", site.ID(), i), site.URL, site.URL
		in.Source = wire.BundleSource{Origin: source.OriginDomain, Via: source.ViaIndexNow, URL: site.SiteURL(), Host: site.Host(), Dir: site.Dir(), Path: site.Path()}
		low = site.Low()
	} else {
		r := g.repos[int(float64(len(g.repos))*math.Pow(g.rnd.Float64(), 2))]
		path := "index.md"
		if g.chance(0.7) {
			path = g.word() + fmt.Sprint(i) + "/index.md"
			if g.chance(0.04) {
				path = "examples/" + path
			}
		}
		sr := source.Repo{Owner: r.owner, Name: r.name, Path: path}
		full := sr.FullName()
		in.ID, in.IndexURL, in.PageURL = fmt.Sprintf("%s-%d", sr.ID(), i), sr.IndexURL(), sr.PageURL()
		in.Source = wire.BundleSource{Origin: source.OriginCodeHost, Via: source.ViaSweep, URL: sr.RepoURL(), Host: "github.com", Repo: &full, Dir: sr.Dir(), Path: path}
		sig := r.sig
		in.Repo = &sig
		low = sr.Low()
	}
	return low
}
