package search

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/api"
	"github.com/okfindex/okf-index/pkg/source"
)

// TestIDShapeIsDocumented checks that the id a card route accepts is the id
// the OpenAPI document gives, both derived from source.MaxIDLen.
func TestIDShapeIsDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string `json:"name"`
				Schema struct {
					Pattern string `json:"pattern"`
				} `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	params := doc.Paths["/api/bundles/{id}"]["get"].Parameters
	if len(params) != 1 || params[0].Name != "id" || params[0].Schema.Pattern != idShape.String() {
		t.Errorf("documented id %+v, route accepts %s", params, idShape)
	}
	if want := "{1," + strconv.Itoa(source.MaxIDLen) + "}"; !strings.Contains(idShape.String(), want) {
		t.Errorf("idShape %s does not bound ids at source.MaxIDLen", idShape)
	}
}
