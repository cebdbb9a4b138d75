// Package web renders the pages of OKF Index for people: html/template
// pages and embedded assets (the style sheet, the small script, the icon),
// with no build step. It owns presentation only: it reads no database and
// calls no network. The server package fetches with the same functions its
// API routes use and hands the results to the view builders here.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"path"
	"strings"
)

//go:embed templates
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// pageTemplates are the pages, each parsed with the layout; "results" is
// also rendered alone, the fragment that search as you type swaps in.
var pageTemplates = []string{"search", "bundle", "stats", "error", "account", "credit", "owner", "docs"}

// Asset is one embedded file served under /assets/.
type Asset struct {
	Body []byte
	Type string // Content-Type
	Hash string // first 12 hex digits of its SHA-256: the URL's v and the ETag
}

// Site is the parsed templates and the assets. It is safe for concurrent use.
type Site struct {
	pages      map[string]*template.Template
	opensearch *template.Template
	assets     map[string]Asset
}

// New parses the embedded templates and reads the assets.
func New() (*Site, error) {
	s := &Site{pages: map[string]*template.Template{}, assets: map[string]Asset{}}
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		s.assets[path.Base(p)] = Asset{Body: b, Type: mime.TypeByExtension(path.Ext(p)), Hash: hex.EncodeToString(sum[:6])}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("web: assets: %w", err)
	}
	funcs := template.FuncMap{"asset": s.AssetURL,
		// dict pairs a filter's name with one of its options.
		"dict": func(name string, o Option) struct {
			Name string
			O    Option
		} {
			return struct {
				Name string
				O    Option
			}{name, o}
		},
		"owner":    func(repo string) string { o, _, _ := strings.Cut(repo, "/"); return o },
		"repoName": func(repo string) string { _, n, _ := strings.Cut(repo, "/"); return n },
	}
	for _, name := range pageTemplates {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/results.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		s.pages[name] = t
	}
	return s, nil
}

// Render writes page (search, bundle, stats, error, or on the full
// variant account or credit) with data.
func (s *Site) Render(w io.Writer, page string, data any) error {
	t, ok := s.pages[page]
	if !ok {
		return fmt.Errorf("web: no page %q", page)
	}
	return t.ExecuteTemplate(w, "layout", data)
}

// RenderResults writes the results fragment of a search page alone.
func (s *Site) RenderResults(w io.Writer, v Results) error {
	return s.pages["search"].ExecuteTemplate(w, "results", v)
}

// RenderAccountKeys writes the key list of an account page alone, which the
// page's script swaps in after a write.
func (s *Site) RenderAccountKeys(w io.Writer, v AccountView) error {
	return s.pages["account"].ExecuteTemplate(w, "keys", v)
}

// OpenSearch is the OpenSearch description of the index at baseURL, so
// browsers offer the index as a search engine.
func (s *Site) OpenSearch(baseURL string) []byte {
	e := html.EscapeString
	b := e(baseURL)
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
<ShortName>OKF Index</ShortName>
<Description>Search OKF (Open Knowledge Format) bundles</Description>
<InputEncoding>UTF-8</InputEncoding>
<Image width="16" height="16" type="image/svg+xml">` + e(baseURL+s.AssetURL("icon.svg")) + `</Image>
<Url type="text/html" method="get" template="` + b + `/?q={searchTerms}"/>
<Url type="application/json" method="get" template="` + b + `/api/bundles?q={searchTerms}"/>
<Url type="application/opensearchdescription+xml" rel="self" template="` + b + `/opensearch.xml"/>
</OpenSearchDescription>
`)
}

// Asset returns the embedded asset of that file name.
func (s *Site) Asset(name string) (Asset, bool) {
	a, ok := s.assets[name]
	return a, ok
}

// AssetURL is the path of an asset with its hash as v, so a page names
// the exact version it was written with and the file can be cached for good.
func (s *Site) AssetURL(name string) string {
	return "/assets/" + name + "?v=" + s.assets[name].Hash
}
