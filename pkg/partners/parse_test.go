package partners

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

func TestDefaultFileLoads(t *testing.T) {
	o, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range o.Placements {
		ids = append(ids, p.ID)
		if len(p.Exposure) != 3 || p.PriceUSD30d != p.Exposure[0].PriceUSD {
			t.Errorf("%s: exposure %v, price_usd_30d %v", p.ID, p.Exposure, p.PriceUSD30d)
		}
	}
	if !slices.Equal(ids, wire.PlacementIDs) {
		t.Errorf("placements %v, want %v", ids, wire.PlacementIDs)
	}
	b, err := json.Marshal(o.Placements[0])
	if err != nil || !strings.Contains(string(b), `"price_usd_30d":300,`) || !strings.Contains(string(b), `{"dias":365,"price_usd":null}`) {
		t.Fatalf("placement JSON %s (%v)", b, err)
	}
}

// edit is one change to the default file, as text replacements.
type edit struct {
	old, new string
	n        int // replacements; 1 when 0
}

func variant(t *testing.T, edits ...edit) []byte {
	t.Helper()
	s := string(DefaultFile())
	for _, e := range edits {
		n := e.n
		if n == 0 {
			n = 1
		}
		if !strings.Contains(s, e.old) {
			t.Fatalf("the default file has no %q", e.old)
		}
		s = strings.Replace(s, e.old, e.new, n)
	}
	return []byte(s)
}

// block is the default file's text from the line starting with from up to
// (not including) to.
func block(from, to string) string {
	s := string(defaultFile)
	i := strings.Index(s, from)
	j := strings.Index(s[i:], to)
	return s[i : i+j+len(to)]
}

const sponsor = `current_sponsors:
  - id: acme
    nome: Acme
    url: https://acme.example
    frase: Acme makes bundles.
    espacos: [llms_txt, pagina_inicial]
    ate: "2026-12-31"
`

func TestParseRefusesNamingTheField(t *testing.T) {
	cases := map[string]struct {
		edits []edit
		field string // the FieldError's field; "" for a decode error
		want  string // in the message
	}{
		"negative price":        {[]edit{{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: -300}", 0}}, "", "negative"},
		"seven decimals":        {[]edit{{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: 0.1234567}", 0}}, "", "six decimals"},
		"price text":            {[]edit{{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: cheap}", 0}}, "", "not a USD amount"},
		"price list":            {[]edit{{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: [1]}", 0}}, "", "USD amount"},
		"exposure 60 days":      {[]edit{{"{dias: 90, price_usd: 800}", "{dias: 60, price_usd: 800}", 0}}, "placements[0].exposure[1].dias", "want 90"},
		"exposure missing 365":  {[]edit{{"      - {dias: 365, price_usd: null}\n    disponivel: true\n  - id: topo", "    disponivel: true\n  - id: topo", 0}}, "placements[0].exposure", "has 2 entries"},
		"exposure out of order": {[]edit{{"{dias: 30, price_usd: 300}\n      - {dias: 90, price_usd: 800}", "{dias: 90, price_usd: 800}\n      - {dias: 30, price_usd: 300}", 0}}, "placements[0].exposure[0].dias", "want 30"},
		"unknown placement":     {[]edit{{"id: pagina_inicial", "id: rodape", 0}}, "placements[0].id", "not a placement id"},
		"placement twice":       {[]edit{{"id: topo_da_busca", "id: pagina_inicial", 0}}, "placements[1].id", "listed twice"},
		"placement missing":     {[]edit{{"  - id: mcp_instructions", "  - id: llms_txt", 0}}, "placements[5].id", "listed twice"},
		"price_usd_30d written": {[]edit{{"    exclusivo: true\n    medicao: Page", "    price_usd_30d: 300\n    exclusivo: true\n    medicao: Page", 0}}, "", "price_usd_30d"},
		"unknown key":           {[]edit{{"idioma: en", "idioma: en\ncolor: blue", 0}}, "", "color"},
		"modalidade unknown":    {[]edit{{"id: anuncio", "id: publicidade", 0}}, "modalidades[2].id", "not a modalidade"},
		"modalidade missing":    {[]edit{{"  - id: anuncio\n    nome: Advertising\n", "", 0}}, "modalidades", "anuncio is missing"},
		"modalidade no name":    {[]edit{{"nome: Partnership", "nome: \"\"", 0}}, "modalidades[1].nome", "required"},
		"no titulo":             {[]edit{{"titulo: Sponsor or partner with OKF Index", "titulo: \"\"", 0}}, "titulo", "required"},
		"bad idioma":            {[]edit{{"idioma: en", "idioma: English", 0}}, "idioma", "language tag"},
		"no placement name":     {[]edit{{"nome: Home page", "nome: \" \"", 0}}, "placements[0].nome", "required"},
		"sponsor bad espaco":    {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "llms_txt", "rodape", 1), 0}}, "current_sponsors[0].espacos[0]", "not a distinct placement id"},
		"sponsor espaco twice":  {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "pagina_inicial", "llms_txt", 1), 0}}, "current_sponsors[0].espacos[1]", "not a distinct"},
		"sponsor no espacos":    {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "[llms_txt, pagina_inicial]", "[]", 1), 0}}, "current_sponsors[0].espacos", "required"},
		"sponsor bad id":        {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "id: acme", "id: Acme Inc", 1), 0}}, "current_sponsors[0].id", "lower case"},
		"sponsor bad url":       {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "https://acme.example", "acme.example", 1), 0}}, "current_sponsors[0].url", "absolute"},
		"sponsor bad date":      {[]edit{{"current_sponsors: []\n", strings.Replace(sponsor, "2026-12-31", "31/12/2026", 1), 0}}, "current_sponsors[0].ate", "YYYY-MM-DD"},
		"sponsor twice":         {[]edit{{"current_sponsors: []\n", sponsor + strings.TrimPrefix(sponsor, "current_sponsors:\n"), 0}}, "current_sponsors[1].id", "twice"},
		"bad email":             {[]edit{{`email: ""`, `email: "House <house@example.com>"`, 0}}, "contact.email", "e-mail"},
		"bad form url":          {[]edit{{`form_url: ""`, `form_url: /contact`, 0}}, "contact.form_url", "absolute"},
		"bad casa":              {[]edit{{`casa: ""`, `casa: "ftp://house.example"`, 0}}, "links.casa", "absolute"},
		"politica key":          {[]edit{{"  rotulo:", "  Rotulo:", 0}}, "politica", "lower case"},
		"parceria twice":        {[]edit{{"  - Tools that read or write OKF bundles", "  - Agent platforms that call the index over MCP", 0}}, "parcerias[2]", "twice"},
		"placement absent":      {[]edit{{block("  - id: mcp_instructions", "house_bundle:"), "house_bundle:", 0}}, "placements", "mcp_instructions is missing"},
		"no politica":           {[]edit{{block("politica:", "links:"), "politica: {}\nlinks:", 0}}, "politica", "required"},
		"two documents":         {[]edit{{"links:\n  casa: \"\"\n", "links:\n  casa: \"\"\n---\nidioma: en\n", 0}}, "", "more than one"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(variant(t, c.edits...))
			if err == nil {
				t.Fatal("accepted")
			}
			var fe *FieldError
			if c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field) {
				t.Fatalf("error %q, want field %s", err, c.field)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q, want it to say %q", err, c.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	cases := map[string][]edit{
		"quoted price":        {{"{dias: 30, price_usd: 300}", `{dias: 30, price_usd: "300.50"}`, 0}},
		"six decimals":        {{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: 0.000001}", 0}},
		"zero price":          {{"{dias: 30, price_usd: 300}", "{dias: 30, price_usd: 0}", 0}},
		"absent price":        {{"{dias: 30, price_usd: 300}", "{dias: 30}", 0}},
		"a sponsor":           {{"current_sponsors: []\n", sponsor, 0}},
		"placements shuffled": {{"  - id: pagina_inicial", "  - id: __tmp", 0}, {"  - id: topo_da_busca", "  - id: pagina_inicial", 0}, {"  - id: __tmp", "  - id: topo_da_busca", 0}},
		"contact email":       {{`email: ""`, `email: house@example.com`, 0}},
	}
	for name, edits := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(variant(t, edits...)); err != nil {
				t.Fatal(err)
			}
		})
	}
	o, err := Parse(variant(t, edit{"{dias: 30, price_usd: 300}", `{dias: 30, price_usd: "300.50"}`, 0}))
	if err != nil || o.Placements[0].PriceUSD30d == nil || *o.Placements[0].PriceUSD30d != 300_500_000 {
		t.Fatalf("price_usd_30d %v (%v)", o.Placements[0].PriceUSD30d, err)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "partners.yaml")
	if err := os.WriteFile(good, variant(t, edit{"current_sponsors: []\n", sponsor, 0}), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := Load(good)
	if err != nil || len(o.CurrentSponsors) != 1 {
		t.Fatalf("%v %v", o, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	_ = os.WriteFile(bad, variant(t, edit{"{dias: 90, price_usd: 800}", "{dias: 60, price_usd: 800}", 0}), 0o600)
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "bad.yaml: placements[0].exposure[1].dias") {
		t.Fatalf("bad file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	_ = os.WriteFile(big, append(DefaultFile(), make([]byte, MaxFileBytes)...), 0o600)
	if _, err := Load(big); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("big file: %v", err)
	}
}

func TestShowingDropsEndedSponsors(t *testing.T) {
	o, err := Parse(variant(t, edit{"current_sponsors: []\n", sponsor + strings.TrimPrefix(strings.NewReplacer("acme", "old", "2026-12-31", "2026-01-31").Replace(sponsor), "current_sponsors:\n"), 0}))
	if err != nil {
		t.Fatal(err)
	}
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d.Add(23 * time.Hour) }
	for d, want := range map[string]int{"2026-01-31": 2, "2026-02-01": 1, "2026-12-31": 1, "2027-01-01": 0} {
		if got := o.Showing(day(d)); len(got) != want {
			t.Errorf("%s: %d sponsors, want %d", d, len(got), want)
		}
	}
	if got := (&Offer{}).Showing(time.Now()); got == nil {
		t.Error("no sponsors must be an empty list, not null")
	}
}

func TestMicros(t *testing.T) {
	for in, want := range map[string]Micros{"0": 0, "150": 150_000_000, "150.00": 150_000_000, "0.10": 100_000, "0.000001": 1, "12.345678": 12_345_678} {
		got, err := ParseMicros(in)
		if err != nil || got != want {
			t.Errorf("ParseMicros(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.", ".5", "01", "1e3", "0x10", "1.0000001", "99999999999", "1,5", " 1"} {
		if _, err := ParseMicros(in); err == nil {
			t.Errorf("ParseMicros(%q) accepted", in)
		}
	}
	for m, want := range map[Micros]string{0: "0", 100_000: "0.1", 150_000_000: "150", 12_345_678: "12.345678", 1: "0.000001"} {
		if got := m.String(); got != want {
			t.Errorf("%d: %q, want %q", m, got, want)
		}
	}
}

// FuzzParse: any file is refused with an error or accepted with every rule
// holding, and an accepted offer encodes as JSON.
func FuzzParse(f *testing.F) {
	f.Add(DefaultFile())
	f.Add([]byte("idioma: en\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("placements:\n  - {id: llms_txt, exposure: [{dias: 30, price_usd: 1.5}]}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := Parse(b)
		if err != nil {
			return
		}
		if len(o.Placements) != len(wire.PlacementIDs) || len(o.PartnershipKinds) != len(wire.PartnershipKinds) {
			t.Fatalf("accepted %d placements, %d modalidades", len(o.Placements), len(o.PartnershipKinds))
		}
		for _, p := range o.Placements {
			for i, e := range p.Exposure {
				if e.Days != ExposureDays[i] || (e.PriceUSD != nil && *e.PriceUSD < 0) {
					t.Fatalf("accepted exposure %+v", p.Exposure)
				}
			}
		}
		if _, err := json.Marshal(o); err != nil {
			t.Fatal(err)
		}
	})
}

func TestMicrosJSONRoundTrip(t *testing.T) {
	for _, m := range []Micros{0, 1, 100_000, 150_000_000, 12_345_678} {
		b, _ := json.Marshal(m)
		var back Micros
		if err := json.Unmarshal(b, &back); err != nil || back != m {
			t.Errorf("%d -> %s -> %d (%v)", m, b, back, err)
		}
	}
	var m Micros
	if err := json.Unmarshal([]byte(`1e3`), &m); err == nil {
		t.Error("1e3 accepted")
	}
}
