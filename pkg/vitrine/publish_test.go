package vitrine_test

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/pkg/vitrine"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// fixture writes known counters around now (2026-11-26 10:05 UTC):
//
//   - today-40: an API call before the window (desde);
//   - today-30, the oldest day of dias: counters from before the measured
//     days existed (no visitors, no requests: null there);
//   - today-29 to today-7, but today-6: nothing at all (null);
//   - today-6: measured, 3 visitors, 1000 requests of which 13 were 5xx;
//   - today-1: measured, nothing counted (real zeros);
//   - today: measured, 2 visitors, 2000 requests.
func fixture(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	ctx := t.Context()
	today := now.UTC().Truncate(24 * time.Hour)
	day := func(i int) time.Time { return today.AddDate(0, 0, -i) }
	add := func(id int, d time.Time, counts map[string]int64) {
		var deltas []store.UsageDelta
		for m, n := range counts {
			deltas = append(deltas, store.UsageDelta{Day: d, Metric: m, N: n})
		}
		if err := st.AddUsage(ctx, fmt.Sprintf("00000000-0000-4000-8000-%012d", id), deltas); err != nil {
			t.Fatal(err)
		}
	}
	visit := func(d time.Time, clients ...string) {
		salt, err := st.OpenUsageDay(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		var hashes [][]byte
		for _, c := range clients {
			hashes = append(hashes, usage.VisitorHash(salt, netip.MustParsePrefix(c), "firefox"))
		}
		if err := st.AddVisitors(ctx, d, hashes); err != nil {
			t.Fatal(err)
		}
	}
	add(1, day(40), map[string]int64{usage.API: 5})
	add(2, day(30), map[string]int64{usage.Page: 1234, usage.API: 98765, usage.APIAI: 1250, usage.APIMachine: 7, usage.Doc: 3})
	visit(day(6), "192.0.2.1/32", "192.0.2.2/32", "2001:db8::/64")
	add(3, day(6), map[string]int64{usage.Page: 150, usage.API: 12, usage.Requests: 1000, usage.Requests5xx: 13})
	visit(day(1))
	visit(today, "192.0.2.1/32", "192.0.2.9/32", "192.0.2.9/32")
	add(4, today, map[string]int64{usage.Page: 5, usage.API: 105, usage.APIAI: 100, usage.MCP: 4, usage.MCPTool: 2,
		usage.Visit: 9, usage.Requests: 2000})

	in, err := indexer.FromRepo([]byte("---\nokf_version: \"0.2\"\ntitle: T\n---\n- [a](a.md)\n"),
		source.Repo{Owner: "o", Name: "r", Path: "index.md"}, indexer.RepoInfo{Language: "Go"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpsertBundle(ctx, in); err != nil {
		t.Fatal(err)
	}
}

// get walks a decoded JSON document along a dotted path (array indexes
// as numbers).
func get(t *testing.T, doc any, path string) any {
	t.Helper()
	v := doc
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				t.Fatalf("%s: no key %q", path, k)
			}
		case []any:
			var i int
			fmt.Sscan(k, &i)
			v = x[i]
		default:
			t.Fatalf("%s: %q of a %T", path, k, v)
		}
	}
	return v
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPublish publishes from known counters under a controlled clock and
// checks every key of the public projection: the rounding to two
// significant digits, null for what was not measured against 0 for what
// was, the 31 days oldest first, the windows, and that a second run within
// the hour changes nothing.
func TestPublish(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := t.Context()
	clock := clocktest.New(time.Date(2026, 11, 26, 10, 5, 0, 0, time.UTC))
	fixture(t, st, clock.Now())
	p := &vitrine.Publisher{Store: st, Product: "okf", Name: "OKF Index", BaseURL: "https://okf.example",
		Build: "abc123", Full: true, Now: clock.Now}
	published, err := p.Publish(ctx)
	if err != nil || !published {
		t.Fatalf("publish: %v %v", published, err)
	}
	doc, ok, err := st.PublicProjection(ctx, "okf")
	if err != nil || !ok {
		t.Fatalf("public projection: %v %v", ok, err)
	}
	pub := decode(t, doc.Doc)

	n := func(v float64) any { return v }
	null := any(nil)
	day := func(pages, api, apiAI, machine, visitors, used any) map[string]any {
		return map[string]any{"paginas": pages, "api": api, "api_ia": apiAI, "maquina": machine, "visitantes": visitors, "uso": used}
	}
	// Every top-level key, in order.
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(doc.Doc)))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	wantKeys := []string{"v", "produto", "publicado", "atualizado_em", "stale", "nome", "desde", "fuso", "hoje", "dias",
		"janelas", "visitantes", "pessoas", "agentes", "superficies", "mcp", "uso", "contas", "confiabilidade", "catalogo", "apoio"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys %v\nwant %v", keys, wantKeys)
	}

	days := pub["dias"].([]any)
	if len(days) != vitrine.Days {
		t.Fatalf("%d days, want %d", len(days), vitrine.Days)
	}
	for i, d := range days {
		want := clock.Now().Truncate(24*time.Hour).AddDate(0, 0, i-30).Format(time.DateOnly)
		if got := d.(map[string]any)["dia"]; got != want {
			t.Errorf("dias[%d].dia = %v, want %s (oldest first, today last)", i, got, want)
		}
	}
	wantDays := map[int]map[string]any{
		0:  day(n(1200), n(99000), n(1300), n(7), null, n(100000)), // 1234, 98765, 1250, 7; uso 100002; visitors not measured then
		1:  day(null, null, null, null, null, null),                // not measured at all
		23: day(null, null, null, null, null, null),
		24: day(n(150), n(12), n(0), n(0), n(3), n(160)),  // uso 162
		29: day(n(0), n(0), n(0), n(0), n(0), n(0)),       // measured, nothing: real zeros
		30: day(n(5), n(110), n(100), n(0), n(2), n(110)), // api 105, uso 114
	}
	for i, want := range wantDays {
		got := days[i].(map[string]any)
		delete(got, "dia")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("dias[%d] = %v\nwant %v", i, got, want)
		}
	}
	for i := 1; i <= 23; i++ {
		if d := days[i].(map[string]any); d["uso"] != nil || d["visitantes"] != nil {
			t.Errorf("dias[%d] = %v, want nulls", i, d)
		}
	}

	today := days[30].(map[string]any)
	today["dia"] = "2026-11-26"
	for path, want := range map[string]any{
		"v": n(1), "produto": "okf", "publicado": true, "atualizado_em": "2026-11-26T10:05:00Z", "stale": false,
		"nome": "OKF Index", "desde": "2026-10-17", "fuso": "UTC", "pessoas": null,
		"hoje": today,
		"janelas.d7": map[string]any{"paginas": n(160), "api": n(120), "api_ia": n(100), "maquina": n(0), "visitantes": n(5),
			"uso": n(280), "dias_medidos": n(3)}, // 155, 117, uso 276
		"janelas.d30": map[string]any{"paginas": n(160), "api": n(120), "api_ia": n(100), "maquina": n(0), "visitantes": n(5),
			"uso": n(280), "dias_medidos": n(3)}, // the 31st day back is not in d30
		"visitantes": map[string]any{"hoje": n(2), "d7": n(5), "media_dia_7d": n(2), "dias_medidos": n(3),
			"definicao": vitrine.VisitorDefinition},
		"agentes": map[string]any{"api_ia_7d": n(100), "api_ia_30d": n(100), "maquina_7d": n(0), "maquina_30d": n(0),
			"parcela_ia_7d": n(0.85)}, // 100/117
		"superficies": map[string]any{"paginas": n(160), "documentos": n(0), "api": n(120), "mcp": n(4), "visitas": n(9)},
		"mcp":         map[string]any{"pedidos_7d": n(4), "pedidos_30d": n(4), "ferramentas_7d": n(2), "ferramentas_30d": n(2)},
		"uso":         map[string]any{"hoje": n(110), "d7": n(280), "d30": n(280)},
		"contas":      map[string]any{"total": n(0), "chaves_ativas": n(0)},
		"confiabilidade": map[string]any{"sem_5xx_7d": n(0.9957), "pedidos_7d": n(3000), "erros_5xx_7d": n(13),
			"build": "abc123"}, // 13/3000 = 0.00433 -> 0.0043
		"catalogo.bundles": n(1), "catalogo.code_host": n(1), "catalogo.domain": n(0),
		"apoio": map[string]any{"parcerias": "https://okf.example/api/partners", "contato": "https://okf.example/api/contact",
			"credito": "https://okf.example/api/credito", "precos": "https://okf.example/api/pricing"},
	} {
		if got := get(t, pub, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v\nwant %#v", path, got, want)
		}
	}
	if s, _ := get(t, pub, "catalogo.ultima_atualizacao").(string); !strings.HasSuffix(s, "Z") {
		t.Errorf("catalogo.ultima_atualizacao = %q, want an ISO 8601 UTC time", s)
	}

	// The operator's document holds the same keys with exact values.
	op, _, err := st.VitrineDocument(ctx, "okf", store.VitrineOperator)
	if err != nil {
		t.Fatal(err)
	}
	exact := decode(t, op.Doc)
	for path, want := range map[string]any{
		"dias.0.paginas": n(1234), "dias.0.api": n(98765), "dias.0.uso": n(100002), "janelas.d7.api": n(117),
		"confiabilidade.sem_5xx_7d": n(1 - 13.0/3000), "agentes.parcela_ia_7d": n(100.0 / 117), "dias.29.visitantes": n(0),
		"dias.1.paginas": null,
	} {
		if got := get(t, exact, path); !reflect.DeepEqual(got, want) {
			t.Errorf("operador %s = %#v, want %#v", path, got, want)
		}
	}
	panel, _, _ := st.VitrineDocument(ctx, "okf", store.VitrinePanel)
	pm := decode(t, panel.Doc)
	if get(t, pm, "apps.0.id") != "okf" || get(t, pm, "apps.0.uso_7d") != n(276) || get(t, pm, "updated") != "2026-11-26T10:05:00Z" ||
		get(t, pm, "totals.apps") != n(1) {
		t.Errorf("painel %s", panel.Doc)
	}
	cursors, _, _ := st.VitrineDocument(ctx, "okf", store.VitrineCursors)
	if s, _ := get(t, decode(t, cursors.Doc), "okf.borda").(string); s == "" {
		t.Errorf("cursores %s: want the newest usage flush as borda", cursors.Doc)
	}

	// The closed days kept their counts and lost their salts and hashes.
	if _, err := st.OpenUsageDay(ctx, clock.Now().AddDate(0, 0, -6)); err != store.ErrDayClosed {
		t.Errorf("today-6 after publication: %v, want closed", err)
	}

	// Publishing again within the hour, with the counters moved, changes
	// nothing; the next hour publishes the new numbers.
	before := map[string][]byte{}
	for _, kind := range []string{store.VitrinePublic, store.VitrineOperator, store.VitrinePanel, store.VitrineCursors} {
		d, _, _ := st.VitrineDocument(ctx, "okf", kind)
		before[kind] = d.Doc
	}
	if err := st.AddUsage(ctx, "00000000-0000-4000-8000-000000000099", []store.UsageDelta{{Day: clock.Now(), Metric: usage.Page, N: 1000}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(50 * time.Minute) // 10:55
	if published, err := p.Publish(ctx); err != nil || published {
		t.Fatalf("second publish within the hour: published %v, %v", published, err)
	}
	for kind, b := range before {
		d, _, _ := st.VitrineDocument(ctx, "okf", kind)
		if string(d.Doc) != string(b) {
			t.Errorf("%s changed within the hour:\n%s\n%s", kind, b, d.Doc)
		}
	}
	clock.Advance(10 * time.Minute) // 11:05
	if published, err := p.Publish(ctx); err != nil || !published {
		t.Fatalf("publish of the next hour: published %v, %v", published, err)
	}
	d, _, _ := st.PublicProjection(ctx, "okf")
	next := decode(t, d.Doc)
	if get(t, next, "atualizado_em") != "2026-11-26T11:05:00Z" || get(t, next, "hoje.paginas") != n(1000) {
		t.Errorf("next hour: atualizado_em %v, hoje.paginas %v (1005 rounded is 1000)", get(t, next, "atualizado_em"), get(t, next, "hoje.paginas"))
	}
}

// TestPublishBeforeAnyUsage: a fresh database publishes nulls, not zeros,
// for everything but today (which the collector marks as measured).
func TestPublishBeforeAnyUsage(t *testing.T) {
	st := storetest.NewStore(t)
	clock := clocktest.New(time.Date(2026, 11, 26, 0, 30, 0, 0, time.UTC))
	p := &vitrine.Publisher{Store: st, Product: "okf", Name: "OKF Index", BaseURL: "https://okf.example", Now: clock.Now}
	if _, err := p.Publish(t.Context()); err != nil {
		t.Fatal(err)
	}
	d, _, _ := st.PublicProjection(t.Context(), "okf")
	pub := decode(t, d.Doc)
	for path, want := range map[string]any{
		"dias.0.uso": nil, "dias.29.paginas": nil, "dias.30.paginas": float64(0), "dias.30.visitantes": float64(0),
		"janelas.d7.dias_medidos": float64(1), "confiabilidade.sem_5xx_7d": nil, "confiabilidade.pedidos_7d": float64(0),
		"agentes.parcela_ia_7d": nil, "contas": nil, "desde": "2026-11-26", "catalogo.bundles": float64(0),
		"catalogo.ultima_atualizacao": nil,
	} {
		if got := get(t, pub, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", path, got, want)
		}
	}
}
