package search

import (
	"reflect"
	"testing"

	"github.com/okfindex/okf-index/services/api/server/route"
)

// TestToolsArePlaced: every tool of the read routes sits on a row of
// Routes (the route table's TestRouteDecisions checks that no tool sits on
// two rows).
func TestToolsArePlaced(t *testing.T) {
	placed := map[string]bool{}
	for _, r := range (&Service{}).Routes() {
		if r.Tool != nil {
			placed[r.Tool.Def.Name] = true
		}
	}
	set := reflect.ValueOf((&Service{}).tools())
	for i := range set.NumField() {
		if name := set.Field(i).Interface().(*route.Tool).Def.Name; !placed[name] {
			t.Errorf("toolSet's %s is on no row: place it on its route's row", name)
		}
	}
}
