package deploy

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
)

var (
	composeFile = repoPath("docker-compose.yml")
	envExample  = repoPath(".env.example")
)

// loadCompose loads docker-compose.yml with .env.example's values and fails
// the test on any loader error or warning.
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	p, warnings, err := LoadCompose(context.Background(), composeFile, envExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Errorf("compose loader: %s", w)
	}
	return p
}

// TestComposeVariables: every ${VAR} docker-compose.yml reads is documented
// in .env.example, a default it gives equals the documented value, a
// required one has a value there, and .env.example documents nothing the
// file does not read.
func TestComposeVariables(t *testing.T) {
	vars, err := ComposeVariables(composeFile)
	if err != nil {
		t.Fatal(err)
	}
	env, err := ReadEnvFile(envExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range variableProblems(vars, env) {
		t.Error(problem)
	}
	if len(vars) == 0 {
		t.Fatal("docker-compose.yml reads no variables: is the extraction broken?")
	}
}

// variableProblems is TestComposeVariables' rule, apart so it can be tested.
func variableProblems(vars map[string]template.Variable, env map[string]string) []string {
	var out []string
	for name, v := range vars {
		val, documented := env[name]
		switch {
		case !documented:
			out = append(out, "docker-compose.yml reads ${"+name+"}; .env.example does not document it")
		case v.Required && val == "":
			out = append(out, "${"+name+"} is required; .env.example gives it no value")
		case !v.Required && v.DefaultValue != val:
			out = append(out, "${"+name+"} defaults to "+strconv.Quote(v.DefaultValue)+" in docker-compose.yml, "+strconv.Quote(val)+" in .env.example")
		}
	}
	for name := range env {
		if _, used := vars[name]; !used {
			out = append(out, ".env.example documents "+name+"; docker-compose.yml does not read it")
		}
	}
	sort.Strings(out)
	return out
}

func TestVariableProblems(t *testing.T) {
	tests := []struct {
		name string
		vars map[string]template.Variable
		env  map[string]string
		want int
	}{
		{"documented with equal default", map[string]template.Variable{"A": {Name: "A", DefaultValue: "1"}}, map[string]string{"A": "1"}, 0},
		{"undocumented", map[string]template.Variable{"A": {Name: "A"}}, map[string]string{}, 1},
		{"defaults disagree", map[string]template.Variable{"A": {Name: "A", DefaultValue: "1"}}, map[string]string{"A": "2"}, 1},
		{"required without value", map[string]template.Variable{"A": {Name: "A", Required: true}}, map[string]string{"A": ""}, 1},
		{"stale documentation", map[string]template.Variable{}, map[string]string{"A": "1"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := variableProblems(tc.vars, tc.env); len(got) != tc.want {
				t.Errorf("variableProblems = %q, want %d problems", got, tc.want)
			}
		})
	}
}

// TestComposeLoaderRefuses shows the loader catches what the brief asks the
// compose check to catch, on small broken files.
func TestComposeLoaderRefuses(t *testing.T) {
	tests := []struct {
		name, compose string
		wantWarning   bool // loaded with a warning rather than refused
	}{
		{name: "depends_on an unknown service", compose: "services:\n  a:\n    image: x\n    depends_on: [b]\n"},
		{name: "unknown key", compose: "services:\n  a:\n    image: x\n    replica: 2\n"},
		{name: "unknown volume", compose: "services:\n  a:\n    image: x\n    volumes: [\"data:/d\"]\n"},
		{name: "required variable unset", compose: "services:\n  a:\n    image: x:${TAG:?set TAG}\n"},
		{name: "variable unset", compose: "services:\n  a:\n    image: x:${TAG}\n", wantWarning: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file, env := filepath.Join(dir, "compose.yml"), filepath.Join(dir, ".env")
			if err := os.WriteFile(file, []byte("name: broken\n"+tc.compose), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(env, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			_, warnings, err := LoadCompose(context.Background(), file, env)
			if tc.wantWarning {
				if err != nil || len(warnings) == 0 {
					t.Errorf("LoadCompose = %v, warnings %q; want a warning", err, warnings)
				}
				return
			}
			if err == nil {
				t.Error("LoadCompose accepted it")
			}
		})
	}
}

func TestComposeServices(t *testing.T) {
	p := loadCompose(t)
	env, err := ReadEnvFile(envExample)
	if err != nil {
		t.Fatal(err)
	}
	names := p.ServiceNames()
	sort.Strings(names)
	if want := []string{"api", "migrate", "postgres", "worker"}; !slices.Equal(names, want) {
		t.Fatalf("services %v, want %v", names, want)
	}
	svc := func(name string) types.ServiceConfig { return p.Services[name] }

	t.Run("depends_on", func(t *testing.T) {
		for _, s := range p.Services {
			for dep := range s.DependsOn {
				if _, ok := p.Services[dep]; !ok {
					t.Errorf("%s depends on unknown service %s", s.Name, dep)
				}
			}
		}
		want := map[string]map[string]string{
			"migrate": {"postgres": types.ServiceConditionHealthy},
			"api":     {"postgres": types.ServiceConditionHealthy, "migrate": types.ServiceConditionCompletedSuccessfully},
			"worker":  {"postgres": types.ServiceConditionHealthy, "migrate": types.ServiceConditionCompletedSuccessfully},
		}
		for name, deps := range want {
			for dep, cond := range deps {
				if got := svc(name).DependsOn[dep].Condition; got != cond {
					t.Errorf("%s depends on %s with condition %q, want %q", name, dep, got, cond)
				}
			}
		}
	})

	t.Run("postgres", func(t *testing.T) {
		pg := svc("postgres")
		if pg.Image != "postgres:15" {
			t.Errorf("postgres image %s, want postgres:15", pg.Image)
		}
		if pg.HealthCheck == nil || pg.HealthCheck.Disable || !strings.Contains(strings.Join(pg.HealthCheck.Test, " "), "pg_isready") {
			t.Errorf("postgres health check %+v, want pg_isready", pg.HealthCheck)
		}
		hasVolume := false
		for _, v := range pg.Volumes {
			_, declared := p.Volumes[v.Source]
			if v.Type == types.VolumeTypeVolume && declared && v.Target == "/var/lib/postgresql/data" {
				hasVolume = true
			}
		}
		if !hasVolume {
			t.Errorf("postgres volumes %+v: want a named volume on /var/lib/postgresql/data", pg.Volumes)
		}
	})

	t.Run("worker replicas", func(t *testing.T) {
		w := svc("worker")
		if w.Deploy == nil || w.Deploy.Replicas == nil {
			t.Fatal("worker has no deploy.replicas")
		}
		if want, _ := strconv.Atoi(env["WORKER_REPLICAS"]); *w.Deploy.Replicas != want || want < 1 {
			t.Errorf("worker replicas %d, want WORKER_REPLICAS=%d", *w.Deploy.Replicas, want)
		}
		if len(w.Ports) != 0 {
			t.Errorf("worker publishes ports %+v: replicas would collide on the host", w.Ports)
		}
	})

	t.Run("images", func(t *testing.T) {
		for _, s := range p.Services {
			if s.Name == "postgres" {
				continue
			}
			d, ok := imageBinary(t, s.Image)
			if !ok {
				continue
			}
			if s.Build == nil {
				t.Errorf("%s has no build section", s.Name)
				continue
			}
			if root, _ := filepath.Abs(RepoRoot); s.Build.Context != root {
				t.Errorf("%s builds from %s, want the repository root", s.Name, s.Build.Context)
			}
			if got, want := filepath.Join(s.Build.Context, s.Build.Dockerfile), mustAbs(t, d.Path); got != want {
				t.Errorf("%s image %s is built from %s, want %s", s.Name, s.Image, got, want)
			}
			if b := s.Build.Args["BUILD"]; b == nil || *b == "" {
				t.Errorf("%s: build arg BUILD is not set", s.Name)
			}
			if len(s.Entrypoint) != 0 {
				t.Errorf("%s overrides the image's ENTRYPOINT", s.Name)
			}
		}
		if got := svc("migrate").Command; !slices.Equal(got, []string{"migrate"}) {
			t.Errorf("migrate runs okfctl %q, want okfctl migrate", got)
		}
		if got := svc("migrate").Restart; got != types.RestartPolicyNo {
			t.Errorf("migrate restart %q, want no: it is a one-shot", got)
		}
	})

	t.Run("environment", func(t *testing.T) {
		for _, name := range []string{"migrate", "api", "worker"} {
			u, err := url.Parse(envValue(svc(name), "DATABASE_URL"))
			if err != nil || u.Scheme != "postgres" {
				t.Errorf("%s DATABASE_URL %v: %v", name, u, err)
				continue
			}
			if _, ok := p.Services[u.Hostname()]; !ok {
				t.Errorf("%s DATABASE_URL host %s is no compose service", name, u.Hostname())
			}
			pg := svc("postgres")
			if pw, _ := u.User.Password(); u.User.Username() != envValue(pg, "POSTGRES_USER") ||
				pw != envValue(pg, "POSTGRES_PASSWORD") || strings.TrimPrefix(u.Path, "/") != envValue(pg, "POSTGRES_DB") {
				t.Errorf("%s DATABASE_URL does not match the postgres service's user, password and database", name)
			}
		}
		// The listeners must bind all interfaces inside a container, on the
		// ports the service publishes.
		listeners := map[string][]string{"api": {"API_ADDR", "OPS_ADDR"}, "worker": {"OPS_ADDR"}}
		for name, vars := range listeners {
			for _, v := range vars {
				host, port, err := net.SplitHostPort(envValue(svc(name), v))
				if err != nil || host != "0.0.0.0" {
					t.Errorf("%s %s=%q, want 0.0.0.0:<port>", name, v, envValue(svc(name), v))
				}
				if name != "api" {
					continue
				}
				if !slices.ContainsFunc(svc(name).Ports, func(pc types.ServicePortConfig) bool { return strconv.Itoa(int(pc.Target)) == port }) {
					t.Errorf("api does not publish %s's port %s", v, port)
				}
			}
		}
		if got := envValue(svc("api"), "VARIANT"); got != env["VARIANT"] {
			t.Errorf("api VARIANT %q, want %q", got, env["VARIANT"])
		}
	})
}

func envValue(s types.ServiceConfig, name string) string {
	if v := s.Environment[name]; v != nil {
		return *v
	}
	return ""
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
