package deploy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	corev1 "k8s.io/api/core/v1"
)

// notPassed are variables the binaries read that no deployment sets, and why.
var notPassed = map[string]string{
	"OKF_FETCH_ALLOW_LOOPBACK": "test setting only: lets the guarded fetch client reach loopback",
	"OKF_FETCH_CA_FILE":        "test setting only: trusts a test CA",
	"OKF_FETCH_DIAL_OVERRIDE":  "test setting only: dials host names at loopback addresses",
	"PG_BIN":                   "okfctl run only: the embedded cluster's initdb; the images use DATABASE_URL",
}

// TestComposePassesEveryVariable: every variable okf-api and okf-worker
// read (pkg/config and the services' own) reaches them under Compose, so
// an operator can set it in .env. A new variable fails this test until it
// is added to docker-compose.yml and .env.example, or to notPassed.
func TestComposePassesEveryVariable(t *testing.T) {
	read := envReads(t, repoPath("pkg/config"), repoPath("services/api"), repoPath("services/worker"))
	if len(read) == 0 {
		t.Fatal("found no environment reads: is the scan broken?")
	}
	p := loadCompose(t)
	passed := map[string]bool{}
	for _, name := range []string{"api", "worker"} {
		for k := range p.Services[name].Environment {
			passed[k] = true
		}
	}
	for name, where := range read {
		if !passed[name] && notPassed[name] == "" {
			t.Errorf("%s (read in %s) is passed to neither api nor worker in docker-compose.yml", name, where)
		}
	}
}

// TestConfigAccepted: the environment each deployment gives okf-api and
// okf-worker passes pkg/config's own validation (and okf-worker's,
// LoadWorker), so neither stops at start on a bad VARIANT, PUBLIC_BASE_URL,
// OKF_SWEEP_WORKERS or the like.
func TestConfigAccepted(t *testing.T) {
	t.Run("compose", func(t *testing.T) {
		p := loadCompose(t)
		for _, name := range []string{"api", "worker"} {
			env := map[string]string{}
			for k, v := range p.Services[name].Environment {
				if v != nil {
					env[k] = *v
				}
			}
			if _, err := config.Load(mapEnv(env)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if name == "worker" {
				if _, err := config.LoadWorker(mapEnv(env)); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	})
	forEachOverlay(t, func(t *testing.T, variant, _ string, m manifest) {
		cm := m.config(t)
		for _, w := range workloads(m) {
			if w.kind != "Deployment" {
				continue
			}
			for _, c := range w.spec.Containers {
				env := podEnv(c, cm)
				cfg, err := config.Load(mapEnv(env))
				if err != nil {
					t.Errorf("%s: %v", w.name, err)
				} else if cfg.Variant != variant {
					t.Errorf("%s: variant %s, want %s", w.name, cfg.Variant, variant)
				}
				if strings.Contains(c.Image, "/okf-worker") {
					if _, err := config.LoadWorker(mapEnv(env)); err != nil {
						t.Errorf("%s: %v", w.name, err)
					}
				}
			}
		}
	})
}

// podEnv is the environment a container gets: the ConfigMap through
// envFrom, literal values, and a placeholder for each required secret (an
// optional one is left unset, as when the Secret lacks the key).
func podEnv(c corev1.Container, cm *corev1.ConfigMap) map[string]string {
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef != nil && ef.ConfigMapRef.Name == cm.Name {
			for k, v := range cm.Data {
				env[ef.Prefix+k] = v
			}
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.SecretKeyRef != nil && (e.ValueFrom.SecretKeyRef.Optional == nil || !*e.ValueFrom.SecretKeyRef.Optional):
			env[e.Name] = "postgres://placeholder@db.example.internal:5432/okf"
		}
	}
	return env
}

func mapEnv(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

// envReads finds the variable names the non-test Go files under dirs read
// with getenv("NAME"), os.Getenv("NAME") or os.LookupEnv("NAME"), each with
// the file that reads it.
func envReads(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && e.Name() == "testdata" {
				return filepath.SkipDir
			}
			if e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				var fn string
				switch f := call.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if (fn != "getenv" && fn != "Getenv" && fn != "LookupEnv") || !ok || lit.Kind != token.STRING {
					return true
				}
				if name, err := strconv.Unquote(lit.Value); err == nil {
					rel, _ := filepath.Rel(RepoRoot, p)
					out[name] = filepath.ToSlash(rel)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
