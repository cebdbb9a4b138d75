package server

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/search"
)

const atomNS = "http://www.w3.org/2005/Atom"

// atomNode is an element of an Atom document, read generically so that the
// validator sees every element and attribute as written.
type atomNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []atomNode `xml:",any"`
}

func (n atomNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

func (n atomNode) all(local string) []atomNode {
	var out []atomNode
	for _, c := range n.Children {
		if c.XMLName.Space == atomNS && c.XMLName.Local == local {
			out = append(out, c)
		}
	}
	return out
}

// validateAtom checks a document against the rules of RFC 4287 that a feed
// reader relies on, and returns every violation:
//   - well-formed XML whose root is atom:feed (4.1.1);
//   - the feed has exactly one atom:id (an absolute IRI), atom:title and
//     atom:updated (a RFC 3339 date-time), an atom:link rel="self" (4.1.1,
//     4.2.7.2), and no two alternate links of one type and hreflang;
//   - an author in the feed, or in every entry, each with an atom:name
//     (4.1.1, 3.2);
//   - every entry has exactly one atom:id (absolute IRI, unique in the
//     feed), atom:title and atom:updated (RFC 3339), and atom:content or
//     an alternate link (4.1.2); content and title types are text, html
//     or xhtml (3.1.1, 4.1.3.1); every link has an href (4.2.7.1).
func validateAtom(doc []byte) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	for { // well-formed: every token decodes
		if _, err := dec.Token(); err != nil {
			if !errors.Is(err, io.EOF) {
				return []error{fmt.Errorf("not well-formed XML: %w", err)}
			}
			break
		}
	}
	var feed atomNode
	if err := xml.Unmarshal(doc, &feed); err != nil {
		return []error{fmt.Errorf("decode: %w", err)}
	}
	if feed.XMLName.Space != atomNS || feed.XMLName.Local != "feed" {
		return []error{fmt.Errorf("root element is %v, want atom:feed", feed.XMLName)}
	}
	iri := func(where, v string) {
		u, err := url.Parse(strings.TrimSpace(v))
		if err != nil || !u.IsAbs() {
			fail("%s: atom:id %q is not an absolute IRI", where, v)
		}
	}
	date := func(where string, n atomNode) {
		if _, err := time.Parse(time.RFC3339, strings.TrimSpace(n.Text)); err != nil {
			fail("%s: atom:updated %q is not a RFC 3339 date-time", where, n.Text)
		}
	}
	textType := func(where string, n atomNode) {
		switch n.attr("type") {
		case "", "text", "html", "xhtml":
		default:
			if where == "" || !strings.Contains(n.attr("type"), "/") || n.XMLName.Local != "content" {
				fail("%s: %s type %q", where, n.XMLName.Local, n.attr("type"))
			}
		}
	}
	one := func(where string, n atomNode, local string) (atomNode, bool) {
		got := n.all(local)
		if len(got) != 1 {
			fail("%s: %d atom:%s elements, want exactly one", where, len(got), local)
			return atomNode{}, false
		}
		return got[0], true
	}
	links := func(where string, n atomNode) (self, alternate int) {
		seen := map[string]bool{}
		for _, l := range n.all("link") {
			if l.attr("href") == "" {
				fail("%s: atom:link without href", where)
			}
			switch rel := l.attr("rel"); rel {
			case "self":
				self++
			case "", "alternate":
				alternate++
				key := l.attr("type") + "|" + l.attr("hreflang")
				if seen[key] {
					fail("%s: two alternate links of type %q", where, l.attr("type"))
				}
				seen[key] = true
			}
		}
		return self, alternate
	}
	authored := func(n atomNode) bool {
		authors := n.all("author")
		for _, a := range authors {
			if names := a.all("name"); len(names) != 1 || strings.TrimSpace(names[0].Text) == "" {
				return false
			}
		}
		return len(authors) > 0
	}

	if id, ok := one("feed", feed, "id"); ok {
		iri("feed", id.Text)
	}
	if t, ok := one("feed", feed, "title"); ok {
		textType("feed", t)
	}
	if u, ok := one("feed", feed, "updated"); ok {
		date("feed", u)
	}
	if self, _ := links("feed", feed); self != 1 {
		fail("feed: %d links rel=self, want one", self)
	}
	feedAuthor := authored(feed)
	ids := map[string]bool{}
	for i, e := range feed.all("entry") {
		where := fmt.Sprintf("entry %d", i)
		if id, ok := one(where, e, "id"); ok {
			iri(where, id.Text)
			if ids[id.Text] {
				fail("%s: atom:id %q repeats another entry's", where, id.Text)
			}
			ids[id.Text] = true
		}
		if t, ok := one(where, e, "title"); ok {
			textType(where, t)
		}
		if u, ok := one(where, e, "updated"); ok {
			date(where, u)
		}
		_, alternate := links(where, e)
		contents := e.all("content")
		if len(contents) > 1 {
			fail("%s: %d atom:content elements", where, len(contents))
		}
		for _, c := range contents {
			textType(where, c)
		}
		if len(contents) == 0 && alternate == 0 {
			fail("%s: neither atom:content nor an alternate link", where)
		}
		if !feedAuthor && !authored(e) {
			fail("%s: no author, and the feed has none", where)
		}
	}
	return errs
}

// The validator refuses what RFC 4287 refuses.
func TestValidateAtom(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">`
	const good = `<title>T</title><id>https://x.example/feed.atom</id><updated>2026-01-02T03:04:05Z</updated>` +
		`<link href="https://x.example/feed.atom" rel="self"/><author><name>X</name></author>`
	const entry = `<entry><title>E</title><id>https://x.example/e/1</id><updated>2026-01-02T03:04:05Z</updated><content type="text">c</content></entry>`
	tests := []struct {
		name, doc string
		ok        bool
	}{
		{"valid", head + good + entry + `</feed>`, true},
		{"not well-formed", head + good + `<entry></feed>`, false},
		{"no feed id", head + strings.Replace(good, `<id>https://x.example/feed.atom</id>`, ``, 1) + `</feed>`, false},
		{"relative feed id", head + strings.Replace(good, `https://x.example/feed.atom</id>`, `feed.atom</id>`, 1) + `</feed>`, false},
		{"no feed title", head + strings.Replace(good, `<title>T</title>`, ``, 1) + `</feed>`, false},
		{"feed updated not RFC 3339", head + strings.Replace(good, `2026-01-02T03:04:05Z`, `2026-01-02 03:04:05`, 1) + `</feed>`, false},
		{"no self link", head + strings.Replace(good, `rel="self"`, `rel="alternate"`, 1) + `</feed>`, false},
		{"no author anywhere", head + strings.Replace(good, `<author><name>X</name></author>`, ``, 1) + entry + `</feed>`, false},
		{"entry without id", head + good + strings.Replace(entry, `<id>https://x.example/e/1</id>`, ``, 1) + `</feed>`, false},
		{"entry without title", head + good + strings.Replace(entry, `<title>E</title>`, ``, 1) + `</feed>`, false},
		{"entry without updated", head + good + strings.Replace(entry, `<updated>2026-01-02T03:04:05Z</updated>`, ``, 1) + `</feed>`, false},
		{"entry without content or link", head + good + strings.Replace(entry, `<content type="text">c</content>`, ``, 1) + `</feed>`, false},
		{"two entries with one id", head + good + entry + entry + `</feed>`, false},
		{"another root", `<?xml version="1.0"?><rss><channel/></rss>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := validateAtom([]byte(tt.doc))
			if (len(errs) == 0) != tt.ok {
				t.Errorf("validateAtom: %v, want ok %v", errs, tt.ok)
			}
		})
	}
}

// GET /feed.atom is a valid Atom document of the newest 50 changes, newest
// first, each entry naming its bundle and, for a removal, why.
func TestFeedAtom(t *testing.T) {
	a := newAPI(t, "base")
	resp, body := a.do(http.MethodGet, "/feed.atom", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("empty feed: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if errs := validateAtom(body); len(errs) > 0 {
		t.Fatalf("empty feed: %v\n%s", errs, body)
	}
	var ins []store.BundleInput
	for i := range 55 {
		ins = append(ins, repoBundle("acme", fmt.Sprint("kb", i), "index.md",
			wire.Card{Name: fmt.Sprintf("KB <%d> & co", i), OKFVersion: "0.1"}, signal(1, "", "")))
	}
	upsert(t, a.store, ins...)
	if _, err := a.store.HideGoneRepo(t.Context(), "acme/kb54"); err != nil {
		t.Fatal(err)
	}
	_, body = a.do(http.MethodGet, "/feed.atom", nil)
	if errs := validateAtom(body); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, body)
	}
	var feed atomNode
	if err := xml.Unmarshal(body, &feed); err != nil {
		t.Fatal(err)
	}
	entries := feed.all("entry")
	if len(entries) != search.AtomEntries {
		t.Fatalf("%d entries, want %d", len(entries), search.AtomEntries)
	}
	title := func(e atomNode) string { return e.all("title")[0].Text }
	if got := title(entries[0]); got != "Removed: KB <54> & co" {
		t.Errorf("newest entry %q, want the removal", got)
	}
	if got := entries[0].all("content")[0].Text; !strings.Contains(got, "repository no longer resolves") {
		t.Errorf("removal's content %q does not say why", got)
	}
	if got := title(entries[1]); got != "Added: KB <54> & co" {
		t.Errorf("second entry %q", got)
	}
	// An entry's id is the one-event page that holds it.
	id := entries[1].all("id")[0].Text
	var page wire.ChangePage
	a.get(strings.TrimPrefix(id, publicBase), http.StatusOK, &page)
	if len(page.Items) != 1 || page.Items[0].ID != ins[54].ID || page.Items[0].Event != wire.ChangeAdded {
		t.Errorf("entry id %s answers %+v", id, page)
	}
	if href := entries[1].all("link")[0].attr("href"); href != publicBase+"/b/"+ins[54].ID {
		t.Errorf("entry link %s", href)
	}
	if got := feed.all("updated")[0].Text; got != strings.TrimSpace(entries[0].all("updated")[0].Text) {
		t.Errorf("feed updated %s, newest entry %s", got, entries[0].all("updated")[0].Text)
	}
}

// An entry's updated time is when its change was written, the at of GET
// /api/changes, even when the feed places many changes at once; the
// feed's updated time is the latest of them.
func TestFeedAtomEntryTimes(t *testing.T) {
	t.Parallel()
	a := newAPI(t, "base")
	first := repoBundle("acme", "early", "index.md", wire.Card{Name: "Early", OKFVersion: "0.1"}, signal(1, "", ""))
	upsert(t, a.store, first)
	time.Sleep(1100 * time.Millisecond) // the feed's times have one-second resolution
	second := repoBundle("acme", "late", "index.md", wire.Card{Name: "Late", OKFVersion: "0.1"}, signal(1, "", ""))
	upsert(t, a.store, second)

	// Nothing read the feed between the writes, so this read places both.
	_, body := a.do(http.MethodGet, "/feed.atom", nil)
	if errs := validateAtom(body); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, body)
	}
	var feed atomNode
	if err := xml.Unmarshal(body, &feed); err != nil {
		t.Fatal(err)
	}
	var page wire.ChangePage
	a.get("/api/changes", http.StatusOK, &page)
	at := map[string]string{} // bundle id to its event's at
	for _, ch := range page.Items {
		at[ch.ID] = ch.At.UTC().Format(time.RFC3339)
	}
	entries := feed.all("entry")
	if len(entries) != 2 {
		t.Fatalf("%d entries, want 2\n%s", len(entries), body)
	}
	updated := func(n atomNode) string { return strings.TrimSpace(n.all("updated")[0].Text) }
	for i, id := range []string{second.ID, first.ID} { // newest first
		if got := updated(entries[i]); got != at[id] {
			t.Errorf("entry %d (%s): updated %s, want its change's at %s", i, id, got, at[id])
		}
	}
	if updated(entries[0]) == updated(entries[1]) {
		t.Errorf("both entries dated %s, though written a second apart", updated(entries[0]))
	}
	if got := updated(feed); got != at[second.ID] {
		t.Errorf("feed updated %s, want the latest change's %s", got, at[second.ID])
	}
}
