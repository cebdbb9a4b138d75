package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safetext"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

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
		fmt.Fprintln(fs.Output(), "usage: okfctl lint [--repo owner/repo [--dir d] | --url URL] [--json] PATH\n\nPATH is a root index.md or a bundle directory (then links are checked against its files).\nExit code 1 when PATH is not a bundle root; the reason is the word GET /api/status gives.")
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

	// The bundle's home on disk, when PATH is a directory: its links are
	// checked against the files there.
	var files okf.Files
	linkDir := ""
	if bundleDir != "" {
		if *rootURL != "" {
			files = diskFiles(bundleDir)
		} else if files, linkDir = lintHome(bundleDir, *dir, flagSet(fs, "dir")); *dir == "" {
			*dir = linkDir
		}
		if abs, err := filepath.Abs(bundleDir); err == nil && *repo == "" && linkDir != "" {
			// The stand-in repository is named after the repository's root.
			home := strings.TrimSuffix(filepath.ToSlash(abs), "/"+linkDir)
			*repo = "local/" + filepath.Base(filepath.FromSlash(home))
		}
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
		parsed, err = indexer.ParseRepo(data, loc, indexer.RepoInfo{Files: files}, time.Now())
		parsed.Input.Repo = nil // no repository signals are known offline
	}
	return lintReport(stdout, file, *asJSON, parsed, err, strings.TrimRight(*apiBase, "/"), linkDir, files)
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

// lintHome finds the repository a bundle directory on disk lives in and
// returns its files and the bundle's directory inside it (slash-separated,
// "" at the root): the directory --dir names above the bundle (--dir . or
// "" says the bundle is the repository's root), else the
// nearest ancestor holding .git, else the bundle directory itself. A --dir
// that the path does not end in still names the bundle's place, but only
// the bundle's own files are known then.
func lintHome(bundleDir, dirFlag string, dirSet bool) (okf.Files, string) {
	abs, err := filepath.Abs(bundleDir)
	if err != nil {
		abs = bundleDir
	}
	d := strings.Trim(filepath.ToSlash(dirFlag), "/")
	if dirSet && (d == "" || d == ".") {
		return diskFiles(abs), ""
	}
	if d != "" && d != "." {
		if strings.HasSuffix(filepath.ToSlash(abs), "/"+d) {
			return diskFiles(strings.TrimSuffix(abs, filepath.FromSlash("/"+d))), d
		}
		own := diskFiles(abs)
		return func(p string) bool {
			rel, ok := strings.CutPrefix(p, d+"/")
			return ok && own(rel)
		}, d
	}
	for up := abs; ; {
		if _, err := os.Stat(filepath.Join(up, ".git")); err == nil {
			rel, _ := filepath.Rel(up, abs)
			if rel == "." {
				rel = ""
			}
			return diskFiles(up), filepath.ToSlash(rel)
		}
		parent := filepath.Dir(up)
		if parent == up {
			return diskFiles(abs), ""
		}
		up = parent
	}
}

// flagSet reports whether the command line gave the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// diskFiles is the tree of home on disk, as the parser asks for it.
func diskFiles(home string) okf.Files {
	return func(p string) bool {
		fi, err := os.Stat(filepath.Join(home, filepath.FromSlash(p)))
		return err == nil && !fi.IsDir()
	}
}

// printCard prints the card for a terminal: every value one line without
// control characters (safetext.Line), whatever the file or its path held.
func printCard(w io.Writer, b store.Bundle) {
	t := safetext.Line
	fmt.Fprintf(w, "id:          %s\n", t(b.ID))
	fmt.Fprintf(w, "name:        %s\n", t(b.Name))
	fmt.Fprintf(w, "tagline:     %s\n", t(b.Tagline))
	fmt.Fprintf(w, "okf_version: %s\n", t(b.OKFVersion))
	fmt.Fprintf(w, "type:        %s\n", t(b.Type))
	fmt.Fprintf(w, "visibility:  %s\n", b.Visibility)
	fmt.Fprintf(w, "index_url:   %s\n", t(b.IndexURL))
	fmt.Fprintf(w, "page_url:    %s\n", t(b.PageURL))
	fmt.Fprintf(w, "concepts:    %d\n", b.Concepts)
	for _, c := range b.ConceptList {
		line := "  - " + t(c.Name) + " <" + t(c.URL) + ">"
		if c.Summary != "" {
			line += ": " + t(c.Summary)
		}
		fmt.Fprintln(w, line)
	}
	if extra := b.Concepts - len(b.ConceptList); extra > 0 {
		fmt.Fprintf(w, "  ... and %d more\n", extra)
	}
	if len(b.Cut) > 0 {
		fmt.Fprintf(w, "cut:         %s (cut to the card's sizes)\n", strings.Join(b.Cut, ", "))
	}
}

// lintReport prints what lint found of file: the card and its warnings,
// or why it is not a bundle (exit code 1).
func lintReport(stdout io.Writer, file string, asJSON bool, parsed indexer.Parsed, err error, apiBase, linkDir string, files okf.Files) (int, error) {
	if errors.Is(err, okf.ErrNotBundle) {
		// The reason word and sentence the owner status (GET /api/status)
		// records for the same file.
		reason, detail := indexer.NotBundleReason(err)
		if asJSON {
			_ = json.NewEncoder(stdout).Encode(map[string]any{"bundle": false, "error": "not_a_bundle",
				"reason": reason, "message": detail})
		} else {
			fmt.Fprintf(stdout, "%s: not a bundle (%s): %s\n", safetext.Line(file), reason, detail)
		}
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	card := indexer.Preview(parsed.Input, apiBase, time.Now())
	warnings := indexer.Warnings(parsed.Card, linkDir, files)

	if asJSON {
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
		fmt.Fprintln(stdout, "warning:", safetext.Line(w))
	}
	return 0, nil
}
