package deploy

import (
	"bufio"
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestDockerignoreSendsWhatTheBuildNeeds: every COPY source of the
// Dockerfiles, and every file `go build` reads in the workspace modules
// (non-test Go files, go.mod, go.sum, //go:embed targets), survives
// .dockerignore; a file it drops would fail the image build, which no test
// here can run.
func TestDockerignoreSendsWhatTheBuildNeeds(t *testing.T) {
	ctx, err := LoadBuildContext(RepoRoot)
	if err != nil {
		t.Fatal(err)
	}
	sends := func(rel string) bool {
		ok, err := ctx.Sends(rel)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	for _, d := range dockerfileByBinary(t) {
		for _, s := range d.Stages {
			for _, c := range s.Copies {
				if c.From != "" {
					continue
				}
				for _, src := range c.Sources {
					src = strings.TrimSuffix(src, "/")
					if _, err := os.Stat(repoPath(src)); err != nil {
						t.Errorf("%s: COPY %s: %v", filepath.Base(d.Path), src, err)
					} else if !sends(src) {
						t.Errorf("%s: COPY %s, but .dockerignore drops it", filepath.Base(d.Path), src)
					}
				}
			}
		}
	}

	needed := 0
	for _, mod := range workspaceModules(t) {
		for _, rel := range buildInputs(t, mod) {
			needed++
			if !sends(rel) {
				t.Errorf(".dockerignore drops %s, which go build needs", rel)
			}
		}
	}
	if needed == 0 {
		t.Fatal("found no build inputs: is go.work readable?")
	}
}

// TestDockerignoreKeepsTheRestOut pins a few paths either way, so the
// allow-list cannot quietly become "send everything".
func TestDockerignoreKeepsTheRestOut(t *testing.T) {
	ctx, err := LoadBuildContext(RepoRoot)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rel  string
		sent bool
	}{
		{"go.mod", true},
		{"go.work", false},
		{"services/api/main.go", true},
		{"api/openapi.json", true},
		{"deploy/go.mod", false},
		{"deploy/dockerfile.go", false},
		{"deploy/k8s/common/kustomization.yaml", false},
		{".git/config", false},
		{".data/pg/postgresql.conf", false},
		{".env", false},
		{"bin/okf-api", false},
		{"examples/README.md", false},
		{"services/okfctl/okfctl", false},
		{"services/api/server/server_test.go", false},
		{"pkg/okf/testdata/root.md", false},
	}
	for _, tc := range tests {
		got, err := ctx.Sends(tc.rel)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.sent {
			t.Errorf("Sends(%s) = %v, want %v", tc.rel, got, tc.sent)
		}
	}
}

// workspaceModules lists the directories of go.work's use block, slash
// paths relative to the repository root.
func workspaceModules(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(repoPath("go.work"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mods []string
	inUse := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "use (":
			inUse = true
		case inUse && line == ")":
			inUse = false
		case inUse && line != "" && !strings.HasPrefix(line, "//"):
			mods = append(mods, strings.TrimPrefix(line, "./"))
		case strings.HasPrefix(line, "use ./"):
			mods = append(mods, strings.TrimPrefix(line, "use ./"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return mods
}

// buildInputs lists the files of the module in dir that go build reads.
// The deploy module builds nothing into the images, which build the service
// module alone (without go.work), so it needs nothing sent.
func buildInputs(t *testing.T, mod string) []string {
	t.Helper()
	if mod == "deploy" {
		return nil
	}
	var out []string
	for _, f := range []string{"go.mod", "go.sum"} {
		if _, err := os.Stat(repoPath(path.Join(mod, f))); err == nil {
			out = append(out, path.Join(mod, f))
		}
	}
	root := repoPath(mod)
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			return nil
		}
		name := e.Name()
		if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
			return filepath.SkipDir // another module
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil {
			return nil // no Go package here
		}
		files := append(append([]string{}, pkg.GoFiles...), pkg.CgoFiles...)
		for _, pattern := range pkg.EmbedPatterns {
			matches, err := embedFiles(p, pattern)
			if err != nil {
				t.Errorf("%s: //go:embed %s: %v", p, pattern, err)
			}
			files = append(files, matches...)
		}
		for _, f := range files {
			rel, err := filepath.Rel(RepoRoot, filepath.Join(p, f))
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// embedFiles expands one //go:embed pattern in dir into file paths relative
// to dir; a directory match stands for the files under it.
func embedFiles(dir, pattern string) ([]string, error) {
	pattern = strings.TrimPrefix(pattern, "all:")
	matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		err := filepath.WalkDir(m, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			out = append(out, rel)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
