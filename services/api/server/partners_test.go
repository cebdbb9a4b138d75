package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/partners"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/contact"
	"github.com/okfindex/okf-index/services/api/server/discovery"
	partnersapi "github.com/okfindex/okf-index/services/api/server/partners"
)

// partnersEnv is the environment of a full API with an offer file.
func partnersEnv(file string, extra map[string]string) map[string]string {
	env := map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": config.VariantFull, "PARTNERS_FILE": file, "X402_MODE": "dev"}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// offerFile writes the default offer with edits (old, new pairs) to a file.
func offerFile(t *testing.T, edits ...string) string {
	t.Helper()
	s := string(partners.DefaultFile())
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("the default offer has no %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	p := filepath.Join(t.TempDir(), "partners.yaml")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPartnersDocument(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	resp, body := a.do(http.MethodGet, "/api/partners", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"status", "produto", "idioma", "titulo", "descricao", "publico", "modalidades", "placements", "house_bundle",
		"parcerias", "current_sponsors", "stats", "payment", "contact", "politica", "_links"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("no %s", k)
		}
	}
	var p partnersapi.Document
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, pl := range p.Placements {
		ids = append(ids, pl.ID)
	}
	if p.Status != "sob_consulta" || p.Product != "okf" || !slices.Equal(ids, wire.PlacementIDs) || len(p.PartnershipKinds) != 3 {
		t.Errorf("status %q, produto %q, placements %v, modalidades %v", p.Status, p.Product, ids, p.PartnershipKinds)
	}
	if !strings.Contains(string(body), `"price_usd_30d":300,"exposure":[{"dias":30,"price_usd":300},{"dias":90,"price_usd":800},{"dias":365,"price_usd":null}]`) {
		t.Errorf("prices are not exact JSON numbers: %s", body)
	}
	if string(doc["stats"]) != `{"link":"`+publicBase+`/api/vitrine","publicado":false}` {
		t.Errorf("stats %s", doc["stats"])
	}
	// The payment block is the x402 configuration: dev, base-sepolia, no address.
	if p.Payment.Network != "base-sepolia" || p.Payment.ChainID != 84532 || p.Payment.Active || p.Payment.PayTo != nil || p.Payment.EIP681 != nil {
		t.Errorf("payment %+v", p.Payment)
	}
	l := p.Links
	if l.Self != publicBase+"/api/partners" || l.Stats != publicBase+"/api/vitrine" || l.Page != nil || l.Contact != publicBase+"/api/contact" || l.Home != publicBase+"/" {
		t.Errorf("_links %+v", l)
	}
	c := p.Contact
	if c.APIURL != publicBase+"/api/contact" || c.Email != nil || c.FormURL != nil || !strings.Contains(string(doc["contact"]), `"price_agent_usd":0.1,`) ||
		!slices.Equal(c.ProposalFields, []string{"tipo", "empresa", "site", "orcamento", "espaco", "duracao", "pagamento"}) {
		t.Errorf("contact %s", doc["contact"])
	}
	if p.HouseBundle.URL != publicBase+"/okf/index.md" || len(p.CurrentSponsors) != 0 || string(doc["current_sponsors"]) != "[]" {
		t.Errorf("house_bundle %+v, sponsors %s", p.HouseBundle, doc["current_sponsors"])
	}
	// Every field it names is one contact.Request decodes.
	for _, f := range append(slices.Clone(c.Fields), c.ProposalFields...) {
		if !strings.Contains(contactFieldTags(), `"`+f+`"`) {
			t.Errorf("%s is not a field of POST /api/contact", f)
		}
	}
}

// contactFieldTags lists the JSON names of contact.Request, quoted.
func contactFieldTags() string {
	b, _ := json.Marshal(contact.Request{FormTS: new(int64), CaptchaResponse: new(string), Placements: []string{}})
	return string(b)
}

func TestPartnersETag(t *testing.T) {
	t.Parallel()
	clk := clocktest.New(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	a := newAPIWithClock(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": config.VariantFull}, clk.Now)
	resp, body := a.do(http.MethodGet, "/api/partners", nil)
	tag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || !strings.HasPrefix(tag, `"`) || len(tag) != 34 || resp.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("status %d, ETag %q, Cache-Control %q", resp.StatusCode, tag, resp.Header.Get("Cache-Control"))
	}
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		resp, b := a.do(http.MethodGet, "/api/partners", http.Header{"If-None-Match": {inm}})
		if resp.StatusCode != http.StatusNotModified || len(b) != 0 || resp.Header.Get("ETag") != tag || resp.Header.Get("Cache-Control") != "public, max-age=3600" {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q", inm, resp.StatusCode, len(b), resp.Header.Get("ETag"))
		}
	}
	resp, again := a.do(http.MethodGet, "/api/partners", http.Header{"If-None-Match": {`"stale"`}})
	if resp.StatusCode != 200 || string(again) != string(body) || resp.Header.Get("ETag") != tag {
		t.Errorf("a stale tag: %d, same body %v", resp.StatusCode, string(again) == string(body))
	}
	resp, head := a.do(http.MethodHead, "/api/partners", nil)
	if resp.StatusCode != 200 || len(head) != 0 || resp.Header.Get("ETag") != tag {
		t.Errorf("HEAD: %d, %d bytes, ETag %q", resp.StatusCode, len(head), resp.Header.Get("ETag"))
	}
	// Concurrent readers of an expired body share one build and one tag.
	var wg sync.WaitGroup
	clk.Advance(2 * time.Minute)
	for range 16 {
		wg.Go(func() {
			resp, _ := a.do(http.MethodGet, "/api/partners", nil)
			if resp.Header.Get("ETag") != tag {
				t.Errorf("concurrent ETag %q, want %q", resp.Header.Get("ETag"), tag)
			}
		})
	}
	wg.Wait()
}

func TestPartnersAbsentOnBase(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	a.getError("/api/partners", 404, apierror.NotFound)
	// A base deployment does not read the offer file: a bad one is no error.
	newAPIWith(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase, "PARTNERS_FILE": "/nonexistent/partners.yaml"})
}

// TestPartnersFileAndContactAgree: the placement ids GET /api/partners
// lists are exactly those POST /api/contact accepts in espaco, whatever the
// order or availability the operator's file gives them.
func TestPartnersFileAndContactAgree(t *testing.T) {
	t.Parallel()
	file := offerFile(t,
		"  - id: pagina_inicial", "  - id: __swap",
		"  - id: llms_txt", "  - id: pagina_inicial",
		"  - id: __swap", "  - id: llms_txt",
		"    disponivel: true\n  - id: topo_da_busca", "    disponivel: false\n  - id: topo_da_busca",
		`casa: ""`, `casa: "https://house.example/"`,
		`email: ""`, `email: parcerias@house.example`)
	a := newAPIWith(t, storetest.NewStore(t), partnersEnv(file, nil))
	var p partnersapi.Document
	a.get("/api/partners", 200, &p)
	var ids []string
	for _, pl := range p.Placements {
		ids = append(ids, pl.ID)
	}
	if ids[0] != "llms_txt" || p.Placements[0].Available || p.Links.Home != "https://house.example/" || p.Contact.Email == nil {
		t.Fatalf("the file's order, availability and links are not served: %v %+v", ids, p.Links)
	}
	sorted := slices.Sorted(slices.Values(ids))
	if !slices.Equal(sorted, slices.Sorted(slices.Values(wire.PlacementIDs))) {
		t.Fatalf("placements %v", ids)
	}
	for _, id := range ids {
		if _, _, err := contact.Parse(contactBody(`,"tipo":"anuncio","espaco":["` + id + `"]`)); err != nil {
			t.Errorf("contact refuses the listed placement %s: %v", id, err)
		}
	}
	for _, id := range []string{"rodape", "LLMS_TXT", ""} {
		if _, _, err := contact.Parse(contactBody(`,"tipo":"anuncio","espaco":["` + id + `"]`)); err == nil {
			t.Errorf("contact accepts %q, which GET /api/partners does not list", id)
		}
	}
}

func TestPartnersBadFileStopsStart(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		file string
		want string
	}{
		"exposure":          {offerFile(t, "{dias: 90, price_usd: 800}", "{dias: 60, price_usd: 800}"), "placements[0].exposure[1].dias"},
		"negative price":    {offerFile(t, "{dias: 30, price_usd: 300}", "{dias: 30, price_usd: -1}"), "negative"},
		"unknown placement": {offerFile(t, "id: cartao_do_bundle", "id: rodape"), "placements[3].id"},
		"missing file":      {filepath.Join(t.TempDir(), "none.yaml"), "none.yaml"},
	} {
		cfg, err := config.Load(func(k string) string { return partnersEnv(c.file, nil)[k] })
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(nil, Options{Config: cfg})
		if err == nil || !strings.Contains(err.Error(), "PARTNERS_FILE") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: start error %v, want PARTNERS_FILE and %q", name, err, c.want)
		}
	}
}

// TestPartnersSponsorTerm: a sponsor shows through its last day and not
// after; the body and its ETag change with it.
func TestPartnersSponsorTerm(t *testing.T) {
	t.Parallel()
	clk := clocktest.New(time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC))
	file := offerFile(t, "current_sponsors: []\n", `current_sponsors:
  - id: acme
    nome: Acme
    url: https://acme.example
    frase: Acme reads bundles.
    espacos: [llms_txt]
    ate: "2026-12-31"
`)
	a := newAPIWithClock(t, storetest.NewStore(t), partnersEnv(file, nil), clk.Now)
	resp, body := a.do(http.MethodGet, "/api/partners", nil)
	var p partnersapi.Document
	_ = json.Unmarshal(body, &p)
	if len(p.CurrentSponsors) != 1 || p.CurrentSponsors[0].Placements[0] != "llms_txt" || p.CurrentSponsors[0].Until != "2026-12-31" {
		t.Fatalf("sponsors %+v", p.CurrentSponsors)
	}
	clk.Advance(12 * time.Hour)
	resp2, body2 := a.do(http.MethodGet, "/api/partners", nil)
	_ = json.Unmarshal(body2, &p)
	if len(p.CurrentSponsors) != 0 || resp2.Header.Get("ETag") == resp.Header.Get("ETag") {
		t.Fatalf("after the term: sponsors %+v, ETag %s (was %s)", p.CurrentSponsors, resp2.Header.Get("ETag"), resp.Header.Get("ETag"))
	}
}

// TestPartnersPaymentLive: with a live x402 configuration the payment
// block names the address, an EIP-681 transfer and is active.
func TestPartnersPaymentLive(t *testing.T) {
	t.Parallel()
	a := newAPIWith(t, storetest.NewStore(t), partnersEnv("", map[string]string{
		"X402_MODE": "live", "X402_NETWORK": "base", "X402_PAY_TO": testPayTo,
		"X402_FACILITATOR_URL": config.DefaultX402Facilitator}))
	var p partnersapi.Document
	a.get("/api/partners", 200, &p)
	pay := p.Payment
	if pay.Network != "base" || pay.ChainID != 8453 || !pay.Active || pay.PayTo == nil || *pay.PayTo != testPayTo ||
		pay.EIP681 == nil || *pay.EIP681 != "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address="+testPayTo {
		t.Fatalf("payment %+v", pay)
	}
	var b billing.Billing
	a.get("/api/billing", 200, &b)
	if b.Payment.Network != pay.Network || int64(b.Payment.ChainID) != pay.ChainID || *b.Payment.PayTo != *pay.PayTo {
		t.Fatalf("partners payment %+v disagrees with billing %+v", pay, b.Payment)
	}
}

// TestPartnersPublishedOnFullOnly: the route is in the full variant's index
// and OpenAPI document, and in neither on base.
func TestPartnersPublishedOnFullOnly(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		a := newAPI(t, variant)
		var idx struct{ Endpoints []discovery.Endpoint }
		a.get("/api/", 200, &idx)
		listed := slices.ContainsFunc(idx.Endpoints, func(e discovery.Endpoint) bool { return e.Path == "/api/partners" })
		doc := string(a.get("/openapi.json", 200, nil))
		documented := strings.Contains(doc, `"/api/partners"`) && strings.Contains(doc, `"PartnerPlacement"`)
		if full := variant == config.VariantFull; listed != full || documented != full {
			t.Errorf("%s: in the index %v, in the document %v", variant, listed, documented)
		}
	}
}
