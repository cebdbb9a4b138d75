package wire

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// encode writes v as the API does: no HTML escaping.
func encode(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// A card encodes its fields in the contract's order (2.1), and an empty
// concept list as [] however it was built.
func TestCardEncoding(t *testing.T) {
	repo := "acme/widgets"
	c := Card{ID: "acme-widgets-0", Name: "Widgets", Source: BundleSource{Origin: OriginCodeHost, Via: "sweep", Repo: &repo},
		IndexedAt: Timestamp{time.Date(2026, 3, 1, 12, 0, 0, 5, time.UTC)}}
	got := encode(t, c)
	keys := regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(got, -1)
	var order []string
	for _, k := range keys {
		order = append(order, k[1])
	}
	want := "id name tagline description okf_version concepts concept_list type index_url page_url " +
		"source origin via url host repo dir path repo indexed_at updated_at api"
	if strings.Join(order, " ") != want {
		t.Errorf("keys\n got %s\nwant %s", strings.Join(order, " "), want)
	}
	for _, part := range []string{`"concept_list":[]`, `"origin":"code_host"`, `"repo":null,"indexed_at":"2026-03-01 12:00:00"`} {
		if !strings.Contains(got, part) {
			t.Errorf("%s lacks %s", got, part)
		}
	}
	c.ConceptList = ConceptList{}
	if again := encode(t, c); again != got {
		t.Errorf("an empty list encodes unlike a nil one:\n%s\n%s", again, got)
	}
}

// A concept list encodes as the plain slice would, with and without HTML
// escaping: the marshaler neither adds nor loses an escape.
func TestConceptListEscaping(t *testing.T) {
	l := ConceptList{{Name: "a <b> & c", URL: "https://x/?a=1&b=2", Summary: "line\u2028sep"}}
	plain := []Concept(l)
	if got, want := encode(t, l), encode(t, plain); got != want {
		t.Errorf("unescaped:\n got %s\nwant %s", got, want)
	}
	got, _ := json.Marshal(struct{ L ConceptList }{l})
	want, _ := json.Marshal(struct{ L []Concept }{plain})
	if !bytes.Equal(got, want) {
		t.Errorf("escaped:\n got %s\nwant %s", got, want)
	}
	var back ConceptList
	if err := json.Unmarshal(got[len(`{"L":`):len(got)-1], &back); err != nil || len(back) != 1 || back[0] != l[0] {
		t.Errorf("round trip: %v %+v", err, back)
	}
}

func TestTimestamp(t *testing.T) {
	ts := Timestamp{time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("x", 3600))}
	b, err := json.Marshal(ts)
	if err != nil || string(b) != `"2026-03-01 11:00:00"` {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var back Timestamp
	if err := json.Unmarshal(b, &back); err != nil || !back.Equal(ts.Time) {
		t.Errorf("unmarshal: %v %v", back, err)
	}
	for _, bad := range []string{`12`, `"2026-03-01T11:00:00Z"`, `"`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestBase(t *testing.T) {
	full := IndexStats{Total: 3, ByOrigin: map[Origin]int64{OriginCodeHost: 2, OriginDomain: 1},
		ByVersion: []Facet{{"0.2", 3}}, ByType: []Facet{{"glossary", 1}}, ByLanguage: []Facet{}}
	got := encode(t, full.Base())
	want := `{"total":3,"by_origin":{"code_host":2,"domain":1},"by_version":[{"v":"0.2","n":3}],"by_language":[],"last_update":null}`
	if got != want {
		t.Errorf("base\n got %s\nwant %s", got, want)
	}
}
