package githubtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSchemaParsesWithResolvers(t *testing.T) {
	s := New(t, Options{}) // MustParseSchema panics on a resolver mismatch
	if !strings.Contains(SchemaSDL(), "type Repository") {
		t.Fatal("schema text missing")
	}
	out, resp := post(t, s, `{ rateLimit { cost limit remaining used resetAt nodeCount } }`, nil)
	if resp.StatusCode != 200 || len(out.Errors) > 0 {
		t.Fatalf("status %d errors %+v", resp.StatusCode, out.Errors)
	}
}

func TestUnknownFieldRejected(t *testing.T) {
	s := corpus(t)
	out, resp := post(t, s, `{ repository(owner: "4rays", name: "icli") { name starCount } }`, nil)
	if resp.StatusCode != 200 || len(out.Errors) != 1 || out.Data != nil {
		t.Fatalf("status %d out %+v", resp.StatusCode, out)
	}
	e := out.Errors[0]
	if e.Message != "Field 'starCount' doesn't exist on type 'Repository'" || e.Extensions["code"] != "undefinedField" || len(e.Locations) == 0 {
		t.Fatalf("error %+v", e)
	}
	// Wrong argument type.
	out, _ = post(t, s, `{ repository(owner: 1, name: "icli") { name } }`, nil)
	if len(out.Errors) == 0 {
		t.Fatal("wrong argument type accepted")
	}
	// Unknown argument, unknown enum value.
	out, _ = post(t, s, `{ search(query: "okf", type: CODE, first: 1) { repositoryCount } }`, nil)
	if len(out.Errors) == 0 {
		t.Fatal("unknown enum value accepted")
	}
	if st := s.Stats(); st.Points != 0 || st.GraphQLCalls != 3 { // invalid queries cost nothing
		t.Fatalf("stats %+v", st)
	}
}

func TestAliasBatchNotFound(t *testing.T) {
	s := corpus(t)
	q := `query {
  r0: repository(owner: "4rays", name: "icli") { nameWithOwner stargazerCount }
  r1: repository(owner: "nobody", name: "nothing") { nameWithOwner }
  r2: repository(owner: "eloybar", name: "okf-skills") { nameWithOwner isArchived }
}`
	out, _ := post(t, s, q, nil)
	if len(out.Errors) != 1 {
		t.Fatalf("errors %+v", out.Errors)
	}
	e := out.Errors[0]
	if e.Type != "NOT_FOUND" || len(e.Path) != 1 || e.Path[0] != "r1" || fmt.Sprint(e.Locations) != "[map[column:3 line:3]]" ||
		e.Message != "Could not resolve to a Repository with the name 'nobody/nothing'." {
		t.Fatalf("error %+v", e)
	}
	if string(out.Data["r1"]) != "null" {
		t.Fatalf("r1 = %s", out.Data["r1"])
	}
	var r0, r2 struct{ NameWithOwner string }
	_ = json.Unmarshal(out.Data["r0"], &r0)
	_ = json.Unmarshal(out.Data["r2"], &r2)
	if r0.NameWithOwner != "4rays/icli" || r2.NameWithOwner != "eloybar/okf-skills" {
		t.Fatalf("data %s", out.Data)
	}
}
