package config

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Variables names exactly what Load, LoadWorker and LoadDatabaseURL read.
func TestVariablesAreWhatIsRead(t *testing.T) {
	read := map[string]bool{}
	getenv := func(k string) string {
		read[k] = true
		if k == "GITHUB_TOKEN" {
			return "token" // the sweep's variables are read only with one
		}
		return ""
	}
	if _, err := Load(getenv); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWorker(getenv); err != nil {
		t.Fatal(err)
	}
	_, _ = LoadDatabaseURL(getenv)
	compareNames(t, "read by Load, LoadWorker and LoadDatabaseURL", keys(read), "Variables()", Variables())
}

// envReaders are the non-test files outside pkg/config that may read the
// environment themselves, and why.
var envReaders = map[string]string{
	"pkg/pgcluster/pgcluster.go":       "PG_BIN for the test harnesses, which start clusters without a BinDir",
	"pkg/store/storetest/storetest.go": "OKF_TEST_DATABASE_URL: the test harness's own setting",
}

// No package but this one calls os.Getenv or os.LookupEnv, apart from
// envReaders (passing os.Getenv to a Load function is how binaries use this
// package).
func TestOnlyConfigReadsTheEnvironment(t *testing.T) {
	root := "../.."
	fset := token.NewFileSet()
	for _, dir := range []string{"pkg", "services"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if strings.HasPrefix(rel, "pkg/config/") || envReaders[rel] != "" {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn := osFunc(call.Fun); fn == "Getenv" || fn == "LookupEnv" {
						t.Errorf("%s: os.%s: read the variable in pkg/config", fset.Position(call.Pos()), fn)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// osFunc is the name of the os function e names, or "".
func osFunc(e ast.Expr) string {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" {
			return sel.Sel.Name
		}
	}
	return ""
}

// The configuration table of docs/operating.md (the README links it)
// documents exactly the variables the binaries read.
func TestReadmeConfigurationTable(t *testing.T) {
	documented := readmeVariables(t, "../../docs/operating.md")
	if len(documented) == 0 {
		t.Fatal(`docs/operating.md: no variable in the table of the "Configuration" section`)
	}
	compareNames(t, "docs/operating.md's configuration table", documented, "pkg/config (Variables)", Variables())
}

// readmeVariables returns the names in backticks in the first column of
// the table in the "Configuration" section (a heading of any level) of the
// markdown file at path.
func readmeVariables(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := regexp.MustCompile("`([^`]+)`")
	var out []string
	in, rows := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(strings.TrimLeft(line, "#")) == "Configuration"
			continue
		}
		if !in || !strings.HasPrefix(line, "|") {
			continue
		}
		rows++
		if rows <= 2 { // the header and its separator
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			out = append(out, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// compareNames reports the names one side has and the other lacks, both
// ways, and names given twice on either side.
func compareNames(t *testing.T, aName string, a []string, bName string, b []string) {
	t.Helper()
	for _, side := range []struct {
		name  string
		names []string
	}{{aName, a}, {bName, b}} {
		seen := map[string]bool{}
		for _, n := range side.names {
			if seen[n] {
				t.Errorf("%s names %s twice", side.name, n)
			}
			seen[n] = true
		}
	}
	if missing := without(b, a); len(missing) > 0 {
		t.Errorf("missing from %s (but in %s): %s", aName, bName, strings.Join(missing, ", "))
	}
	if missing := without(a, b); len(missing) > 0 {
		t.Errorf("missing from %s (but in %s): %s", bName, aName, strings.Join(missing, ", "))
	}
}

// without returns the names of from that are not in these, sorted.
func without(from, these []string) []string {
	var out []string
	for _, n := range from {
		if !slices.Contains(these, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
