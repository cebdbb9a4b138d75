package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// knownVersions are the okf_version values of published OKF specs.
var knownVersions = map[string]bool{"0.1": true, "0.2": true}

// lintCmd prints the card a root yields and the warnings its author needs.
// It returns exit code 1 only when the file is not a bundle root.
func lintCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	repo := fs.String("repo", "", "identity: the repository `owner/repo` that holds the bundle")
	dir := fs.String("dir", "", "identity: the bundle `directory` inside --repo (\"\" at the root)")
	rootURL := fs.String("url", "", "identity: the bundle's root `URL` on its site (a domain bundle)")
	asJSON := fs.Bool("json", false, "print the card and warnings as one JSON object")
	apiBase := fs.String("api", "http://127.0.0.1:8080", "API base `URL` written in the card's api field")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: okfctl lint [--repo owner/repo [--dir d] | --url URL] [--json] PATH\n\nPATH is a root index.md or a bundle directory (then links are checked against its files).\nExit code 1 when PATH is not a bundle root (no okf_version in its frontmatter).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 || (*repo != "" && *rootURL != "") {
		fs.Usage()
		return 0, errUsage
	}
	file, bundleDir := fs.Arg(0), ""
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		bundleDir, file = file, filepath.Join(file, "index.md")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}

	var parsed indexer.Parsed
	switch {
	case *rootURL != "":
		parsed, err = indexer.ParseSite(data, source.Site{URL: *rootURL})
	default:
		loc, lerr := lintRepo(*repo, *dir, file)
		if lerr != nil {
			return 0, lerr
		}
		parsed, err = indexer.ParseRepo(data, loc, indexer.RepoInfo{}, time.Now())
		parsed.Input.Repo = nil // no repository signals are known offline
	}
	if errors.Is(err, okf.ErrNotBundle) {
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(map[string]any{"bundle": false, "error": "not_a_bundle", "message": okf.ErrNotBundle.Error()})
		} else {
			fmt.Fprintf(stdout, "%s: not a bundle: the frontmatter declares no okf_version\n", file)
		}
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	card := indexer.Preview(parsed.Input, strings.TrimRight(*apiBase, "/"), time.Now())
	warnings := lintWarnings(parsed.Card, bundleDir)

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(struct {
			Bundle     bool            `json:"bundle"`
			Visibility wire.Visibility `json:"visibility"`
			Card       wire.Card       `json:"card"`
			Warnings   []string        `json:"warnings"`
		}{true, card.Visibility, card.Card, warnings})
	}
	printCard(stdout, card)
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	return 0, nil
}

// lintRepo is the identity a lint uses: the flags, or else a stand-in
// repository named after the bundle directory.
func lintRepo(repo, dir, file string) (source.Repo, error) {
	if repo == "" {
		abs, _ := filepath.Abs(file)
		repo = "local/" + filepath.Base(filepath.Dir(abs))
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return source.Repo{}, fmt.Errorf("--repo %q must be owner/repo", repo)
	}
	p := "index.md"
	if d := strings.Trim(dir, "/"); d != "" && d != "." {
		p = d + "/index.md"
	}
	return source.Repo{Owner: owner, Name: name, Path: p}, nil
}

func lintWarnings(card okf.Card, bundleDir string) []string {
	warnings := []string{}
	if !knownVersions[card.OKFVersion] {
		warnings = append(warnings, fmt.Sprintf("okf_version %q is not a published OKF version (0.1, 0.2)", card.OKFVersion))
	}
	if card.NameFellBack {
		warnings = append(warnings, fmt.Sprintf("no usable title (frontmatter title or first H1): the card is named %q", card.Name))
	}
	if card.Concepts == 0 {
		warnings = append(warnings, "no concepts: no list item or table row starts with a link")
	}
	if card.Truncated {
		warnings = append(warnings, fmt.Sprintf("root is longer than %d bytes or %d entries: only the start is indexed", okf.MaxRootBytes, okf.MaxEntries))
	}
	if bundleDir != "" {
		warnings = append(warnings, linkWarnings(card.Links, bundleDir)...)
	}
	return warnings
}

// linkWarnings checks relative links against the bundle's files: a link
// starting with "/" is relative to the bundle directory, as the indexer reads it.
func linkWarnings(links []string, bundleDir string) []string {
	var out []string
	for _, link := range links {
		target, err := url.PathUnescape(strings.SplitN(link, "?", 2)[0])
		if err != nil || target == "" {
			continue
		}
		rel := path.Clean("./" + strings.TrimPrefix(target, "/"))
		if rel == ".." || strings.HasPrefix(rel, "../") {
			out = append(out, fmt.Sprintf("link %q leaves the bundle", link))
			continue
		}
		p := filepath.Join(bundleDir, filepath.FromSlash(rel))
		if strings.HasSuffix(target, "/") {
			p = filepath.Join(p, "index.md")
		}
		if _, err := os.Stat(p); err != nil {
			out = append(out, fmt.Sprintf("link %q points at a missing file", link))
		}
	}
	return out
}

func printCard(w io.Writer, b store.Bundle) {
	fmt.Fprintf(w, "id:          %s\n", b.ID)
	fmt.Fprintf(w, "name:        %s\n", b.Name)
	fmt.Fprintf(w, "tagline:     %s\n", b.Tagline)
	fmt.Fprintf(w, "okf_version: %s\n", b.OKFVersion)
	fmt.Fprintf(w, "type:        %s\n", b.Type)
	fmt.Fprintf(w, "visibility:  %s\n", b.Visibility)
	fmt.Fprintf(w, "index_url:   %s\n", b.IndexURL)
	fmt.Fprintf(w, "page_url:    %s\n", b.PageURL)
	fmt.Fprintf(w, "concepts:    %d\n", b.Concepts)
	for _, c := range b.ConceptList {
		line := "  - " + c.Name + " <" + c.URL + ">"
		if c.Summary != "" {
			line += ": " + c.Summary
		}
		fmt.Fprintln(w, line)
	}
	if extra := b.Concepts - len(b.ConceptList); extra > 0 {
		fmt.Fprintf(w, "  ... and %d more\n", extra)
	}
}
