package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/openapi"
)

// Tests that drive the API with outside tools: the Redocly OpenAPI linter
// and the official MCP inspector. make test installs them at pinned
// versions (scripts/ensure-node-tools.sh) and names their directory in
// OKF_NODE_TOOLS; a bare go test without it skips these two tests.

// nodeTool is the path of one installed Node tool.
func nodeTool(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("OKF_NODE_TOOLS")
	if dir == "" {
		t.Skip("OKF_NODE_TOOLS is not set; make test installs the Node tools and sets it")
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("OKF_NODE_TOOLS is set but %s is missing: %v", name, err)
	}
	return path
}

// runTool runs a tool with a deadline in a scratch home, and returns its
// standard output and standard error.
func runTool(t *testing.T, path string, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"),
		"NO_COLOR=1", "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	stdout, err = cmd.Output()
	return stdout, errOut.Bytes(), err
}

// TestOpenAPIRedoclyLint lints the document each variant publishes with
// Redocly's recommended rules (api/redocly.yaml says which rule the
// contract overrides): no errors allowed.
func TestOpenAPIRedoclyLint(t *testing.T) {
	t.Parallel()
	redocly := nodeTool(t, "redocly")
	for _, full := range []bool{false, true} {
		doc, err := openapi.Published(publicBase, full)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "openapi.json")
		if err := os.WriteFile(file, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := filepath.Abs("../../../api/redocly.yaml")
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := runTool(t, redocly, "lint", "--config", cfg, "--format=json", file)
		var report struct {
			Totals   struct{ Errors, Warnings int }
			Problems []struct {
				RuleID, Severity, Message string
				Location                  []struct{ Pointer string }
			}
		}
		if jerr := json.Unmarshal(out, &report); jerr != nil {
			t.Fatalf("full=%v: redocly output is not its JSON report (%v, exit %v): %.500s", full, jerr, err, out)
		}
		for _, p := range report.Problems {
			t.Logf("full=%v: %s %s: %s at %v", full, p.Severity, p.RuleID, p.Message, p.Location)
		}
		if report.Totals.Errors != 0 || err != nil {
			t.Errorf("full=%v: redocly lint: %d errors (exit %v)", full, report.Totals.Errors, err)
		}
	}
}

// TestMCPInspectorCLI lists and calls the tools of the running server with
// the official MCP inspector in --cli mode.
func TestMCPInspectorCLI(t *testing.T) {
	t.Parallel()
	inspector := nodeTool(t, "mcp-inspector")
	a := newAPI(t, config.VariantBase)
	ids := upsert(t, a.store, repoBundle("acme", "recipes", "index.md",
		wire.Card{Name: "Recipe Book", OKFVersion: "0.2", ConceptList: concepts("Recipe", 2)}, signal(3, "Go", "MIT")))
	recount(t, a.store)
	endpoint := a.url + "/mcp"
	cli := func(args ...string) map[string]any {
		t.Helper()
		out, stderr, err := runTool(t, inspector, append([]string{"--cli", endpoint, "--transport", "http"}, args...)...)
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, stderr)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("inspector %v: output is not JSON: %v\n%s", args, err, out)
		}
		return v
	}

	list := cli("--method", "tools/list")
	var names []string
	tools, _ := list["tools"].([]any)
	for _, tool := range tools {
		m, _ := tool.(map[string]any)
		name, _ := m["name"].(string)
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"api_index", "get_bundle", "index_stats", "search_bundles", "submit_bundles"}; !slices.Equal(names, want) {
		t.Fatalf("inspector tools/list: %v, want %v", names, want)
	}

	got := cli("--method", "tools/call", "--tool-name", "get_bundle", "--tool-arg", "id="+ids[0])
	card, _ := got["structuredContent"].(map[string]any)
	if got["isError"] == true || card["id"] != ids[0] || card["name"] != "Recipe Book" {
		t.Errorf("inspector get_bundle: %v", got)
	}
	got = cli("--method", "tools/call", "--tool-name", "search_bundles", "--tool-arg", "q=recipe", "--tool-arg", "sort=name")
	page, _ := got["structuredContent"].(map[string]any)
	if items, _ := page["items"].([]any); got["isError"] == true || len(items) != 1 {
		t.Errorf("inspector search_bundles: %v", got)
	}
	// A bad argument is a tool error, which the inspector reports with its
	// exit code 5, not a transport failure.
	for _, args := range [][]string{
		{"--tool-name", "get_bundle", "--tool-arg", "id=no-such-bundle"},
		{"--tool-name", "search_bundles", "--tool-arg", "sort=best"},
	} {
		_, stderr, err := runTool(t, inspector, append([]string{"--cli", endpoint, "--transport", "http", "--method", "tools/call"}, args...)...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 5 || !bytes.Contains(stderr, []byte("tool_is_error")) {
			t.Errorf("inspector %v: %v %s, want exit 5 tool_is_error", args, err, stderr)
		}
	}
}
