package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
)

// The server card lists the tools exactly as tools/list answers them (names,
// order, schemas) on both variants, names the streamable HTTP endpoint at
// the public base URL, and is linked from the API catalog and GET /api/.
func TestServerCard(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		a := newAPI(t, variant)
		var card struct {
			Name    string
			Version string
			Remotes []struct{ Type, URL string }
			Tools   []json.RawMessage
		}
		a.get("/.well-known/mcp/server-card.json", 200, &card)
		if card.Name != "okf-index" || card.Version != "test-build" || len(card.Remotes) != 1 ||
			card.Remotes[0].Type != "streamable-http" || card.Remotes[0].URL != publicBase+"/mcp" {
			t.Errorf("%s: card %+v", variant, card)
		}
		list, err := mcpSession(t, a).ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Tools) != len(card.Tools) {
			t.Fatalf("%s: card lists %d tools, tools/list %d", variant, len(card.Tools), len(list.Tools))
		}
		for i, tool := range list.Tools {
			want, _ := json.Marshal(tool)
			if !jsonEqual(t, want, card.Tools[i]) {
				t.Errorf("%s: tool %d differs:\ncard       %.300s\ntools/list %.300s", variant, i, card.Tools[i], want)
			}
		}
		var index struct{ Docs map[string]string }
		a.get("/api/", 200, &index)
		if index.Docs["mcp_server_card"] != publicBase+"/.well-known/mcp/server-card.json" {
			t.Errorf("%s: GET /api/ docs %v", variant, index.Docs)
		}
		if body := a.get("/.well-known/api-catalog", 200, nil); !strings.Contains(string(body), "/.well-known/mcp/server-card.json") {
			t.Errorf("%s: the API catalog does not link the server card: %s", variant, body)
		}
	}
}
