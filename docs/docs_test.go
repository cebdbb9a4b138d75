// Package docs holds the documents the README links, and the test that
// keeps them and the README true: what a newcomer reads first, links that
// land, make targets that exist, and the paths of the code map.
package docs

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is how long the README may grow: a newcomer reads it to
// the end; the detail lives in docs/.
const readmeMaxLines = 150

// firstScreen is how many lines a newcomer sees before scrolling.
const firstScreen = 55

// documents are the files checked, relative to the repository root.
var documents = []string{"README.md", "docs/api.md", "docs/web.md", "docs/ingest.md", "docs/operating.md",
	"docs/changing.md", "deploy/README.md", "services/worker/README.md"}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// The README's first screen says what the index is, the two set-up
// commands (and no other), the page's URL and where to go next; the whole
// README stays short.
func TestReadmeFirstScreen(t *testing.T) {
	lines := readLines(t, "README.md")
	if n := len(lines); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move detail to docs/", n, readmeMaxLines)
	}
	screen := strings.Join(lines[:min(firstScreen, len(lines))], "\n")
	for _, want := range []string{"search index of [OKF]", "## Set-up: two commands", "http://127.0.0.1:8080/", "## Where to go next"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the README's first %d lines lack %q", firstScreen, want)
		}
	}
	// The set-up block: exactly make run and make test.
	var cmds []string
	in, inBlock := false, false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "## "):
			in = strings.HasPrefix(l, "## Set-up")
		case in && strings.HasPrefix(l, "```"):
			if inBlock {
				in = false
			}
			inBlock = !inBlock
		case in && inBlock && strings.TrimSpace(l) != "":
			cmd, _, _ := strings.Cut(l, "#")
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if strings.Join(cmds, "|") != "make run|make test" {
		t.Errorf("the set-up block runs %q, want exactly make run and make test", cmds)
	}
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	makeCall  = regexp.MustCompile(`^make ([a-z][a-z0-9-]*)`)
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	repoPath  = regexp.MustCompile(`^(?:pkg|services|db|api|deploy|scripts|docs|examples|testdata)/[A-Za-z0-9_./*-]+$`)
	makeRule  = regexp.MustCompile(`^([a-z][a-z0-9-]*):`)
	headingRe = regexp.MustCompile(`^#{1,6} +(.*?) *#*$`)
)

// Every relative link of the documents lands on a file that exists, and
// on a heading of it when it names one.
func TestDocumentLinks(t *testing.T) {
	for _, doc := range documents {
		fence := false
		for i, l := range readLines(t, doc) {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fence = !fence
			}
			if fence {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				dest := strings.Trim(m[1], "<>")
				if strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(dest, "#")
				target := filepath.Join(filepath.Dir(doc), file)
				if file == "" {
					target = doc
				}
				if _, err := os.Stat(filepath.Join("..", target)); err != nil {
					t.Errorf("%s:%d: link %s: %s does not exist", doc, i+1, dest, target)
					continue
				}
				if anchor != "" && strings.HasSuffix(target, ".md") && !anchors(t, target)[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", doc, i+1, dest, target, anchor)
				}
			}
		}
	}
}

// anchors are the ids GitHub gives the headings of a markdown file.
func anchors(t *testing.T, path string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range readLines(t, path) {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if m := headingRe.FindStringSubmatch(l); m != nil && !fence {
			out[slug(m[1])] = true
		}
	}
	return out
}

// slug is GitHub's heading id: lower case, punctuation other than "-" and
// "_" dropped, spaces as "-".
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Every make target the documents name is one of the Makefile's.
func TestDocumentMakeTargets(t *testing.T) {
	targets := map[string]bool{}
	for _, l := range readLines(t, "Makefile") {
		if m := makeRule.FindStringSubmatch(l); m != nil {
			targets[m[1]] = true
		}
	}
	if !targets["run"] || !targets["test"] {
		t.Fatalf("Makefile targets %v lack run or test", targets)
	}
	for _, doc := range documents {
		fence := false
		for i, l := range readLines(t, doc) {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fence = !fence
				continue
			}
			// Commands: a line of a code block, or a code span.
			var cmds []string
			if fence {
				cmds = append(cmds, strings.TrimSpace(l))
			}
			for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
				cmds = append(cmds, m[1])
			}
			for _, c := range cmds {
				if m := makeCall.FindStringSubmatch(c); m != nil && !targets[m[1]] {
					t.Errorf("%s:%d: make %s: the Makefile has no such target", doc, i+1, m[1])
				}
			}
		}
	}
}

// Every path of the repository the documents name in code (`pkg/...`,
// `services/...`, globs included, a Go name after its package's path)
// exists, so that the code map of docs/changing.md stays true when code
// moves. Placeholders (NNNN, <kind>) and what git ignores are not paths.
func TestDocumentPaths(t *testing.T) {
	var ignored []string
	for _, l := range readLines(t, ".gitignore") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ignored = append(ignored, strings.Trim(l, "/"))
		}
	}
	goName := regexp.MustCompile(`^(.*/[a-z0-9_]+)\.[A-Z]\w*$`)
	for _, doc := range documents {
		base := ".."
		if doc == "deploy/README.md" || doc == "services/worker/README.md" {
			continue // their paths are relative to their own directory
		}
		for i, l := range readLines(t, doc) {
			for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
				p := strings.TrimRight(m[1], ".,:;")
				if !repoPath.MatchString(p) || strings.Contains(p, "NNNN") || slicesContainsPrefix(ignored, p) {
					continue
				}
				if g := goName.FindStringSubmatch(p); g != nil {
					p = g[1]
				}
				found, err := filepath.Glob(filepath.Join(base, p))
				if err != nil || len(found) == 0 {
					t.Errorf("%s:%d: %s does not exist", doc, i+1, p)
				}
			}
		}
	}
}

// The README's commands name no target, file or flag that is gone: every
// okfctl subcommand the documents use is one okfctl has.
func TestDocumentOkfctlCommands(t *testing.T) {
	f, err := os.Open("../services/okfctl/main.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	subs := map[string]bool{}
	caseRe := regexp.MustCompile(`case "([a-z]+)"`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, m := range caseRe.FindAllStringSubmatch(sc.Text(), -1) {
			subs[m[1]] = true
		}
	}
	if !subs["import"] || !subs["run"] {
		t.Fatalf("okfctl subcommands %v lack import or run", subs)
	}
	use := regexp.MustCompile(`okfctl ([a-z]+)\b`)
	for _, doc := range documents {
		for i, l := range readLines(t, doc) {
			for _, m := range use.FindAllStringSubmatch(l, -1) {
				if !subs[m[1]] {
					t.Errorf("%s:%d: okfctl %s: okfctl has no such command", doc, i+1, m[1])
				}
			}
		}
	}
}

// slicesContainsPrefix reports whether p is, or lies under, one of the
// ignored paths.
func slicesContainsPrefix(ignored []string, p string) bool {
	p = strings.Trim(p, "/")
	for _, ig := range ignored {
		if p == ig || strings.HasPrefix(p, ig+"/") {
			return true
		}
	}
	return false
}
