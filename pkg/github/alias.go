package github

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/shurcooL/githubv4"
)

// RepoRef names a repository as GitHub spells it.
type RepoRef struct {
	Owner string
	Name  string
}

// FullName is "owner/name" in lowercase.
func (r RepoRef) FullName() string { return strings.ToLower(r.Owner + "/" + r.Name) }

// String is "owner/name" as spelled.
func (r RepoRef) String() string { return r.Owner + "/" + r.Name }

// ParseRepoRef reads "owner/name".
func ParseRepoRef(s string) (RepoRef, error) {
	owner, name, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return RepoRef{}, fmt.Errorf("github: %q is not owner/name", s)
	}
	return RepoRef{Owner: owner, Name: name}, nil
}

// aliasCall is one aliased repository(...) field of a batched query.
type aliasCall struct {
	repo RepoRef
	// expr, when set, is passed as $eN to the element's fields.
	expr string
}

// batchQuery builds, with reflect.StructOf, the query
//
//	{ p0: repository(owner:$o0, name:$n0) { <elem(0)> } ... rateLimit { cost remaining resetAt } }
//
// elem(i) is the Go type of alias i's selection; the result's fields are
// pointers to it, so a null alias decodes as nil. It returns a pointer to the
// query value and its variables.
func batchQuery(prefix string, calls []aliasCall, elem func(i int) reflect.Type) (reflect.Value, map[string]any) {
	fields := make([]reflect.StructField, 0, len(calls)+1)
	vars := make(map[string]any, 3*len(calls))
	for i, c := range calls {
		fields = append(fields, reflect.StructField{
			Name: fmt.Sprintf("A%d", i),
			Type: reflect.PointerTo(elem(i)),
			Tag:  reflect.StructTag(fmt.Sprintf(`graphql:"%s%d: repository(owner:$o%d, name:$n%d)"`, prefix, i, i, i)),
		})
		vars[fmt.Sprintf("o%d", i)] = githubv4.String(c.repo.Owner)
		vars[fmt.Sprintf("n%d", i)] = githubv4.String(c.repo.Name)
		if c.expr != "" {
			vars[fmt.Sprintf("e%d", i)] = githubv4.String(c.expr)
		}
	}
	fields = append(fields, reflect.StructField{
		Name: "RateLimit", Type: reflect.TypeOf(RateLimit{}), Tag: `graphql:"rateLimit"`,
	})
	return reflect.New(reflect.StructOf(fields)), vars
}

// objectAt is the type struct { Object *T `graphql:"object(expression:$eN)"` }.
func objectAt(i int, t reflect.Type) reflect.Type {
	return reflect.StructOf([]reflect.StructField{{
		Name: "Object",
		Type: reflect.PointerTo(t),
		Tag:  reflect.StructTag(fmt.Sprintf(`graphql:"object(expression:$e%d)"`, i)),
	}})
}

// aliasName is the JSON key of alias i.
func aliasName(prefix string, i int) string { return fmt.Sprintf("%s%d", prefix, i) }

// rateOf reads the RateLimit field of a batch query value.
func rateOf(q reflect.Value) RateLimit {
	return q.Elem().FieldByName("RateLimit").Interface().(RateLimit)
}

// aliasValue is alias i's decoded value (a pointer; nil when null).
func aliasValue(q reflect.Value, i int) reflect.Value {
	return q.Elem().Field(i)
}
