package deploy

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
	kjson "sigs.k8s.io/json"
)

// CustomObject is a document of an operator's custom resource, checked
// against the operator's published schema (its CRD's openAPIV3Schema,
// vendored under testdata/) as the API server would check it: every value
// of the type and within the bounds the schema says, and no field the
// schema does not know (kubectl's strict field validation). The CEL rules
// of the CRD (x-kubernetes-validations) are not evaluated.
type CustomObject struct {
	Metadata metav1.ObjectMeta
	Spec     map[string]any
}

// crdSchemas are the custom resources the manifests may use, by
// apiVersion/kind, each with the file of its schema under testdata/.
var crdSchemas = map[string]string{
	"postgresql.cnpg.io/v1/Cluster": "cnpg-cluster-v1.schema.json",
}

var (
	schemaMu    sync.Mutex
	schemaCache = map[string]*spec.Schema{}
)

// crdSchema loads the vendored schema of a custom kind.
func crdSchema(file string) (*spec.Schema, error) {
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemaCache[file]; ok {
		return s, nil
	}
	b, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "testdata", file))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Schema json.RawMessage `json:"openAPIV3Schema"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	s := new(spec.Schema)
	if err := json.Unmarshal(doc.Schema, s); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	schemaCache[file] = s
	return s, nil
}

// decodeCustom checks the JSON of a custom resource against its schema.
func decodeCustom(js []byte, file string) (*CustomObject, error) {
	schema, err := crdSchema(file)
	if err != nil {
		return &CustomObject{}, err
	}
	var raw map[string]any
	if err := json.Unmarshal(js, &raw); err != nil {
		return &CustomObject{}, err
	}
	var errs []error
	if r := validate.NewSchemaValidator(schema, nil, "", strfmt.Default).Validate(raw); r != nil {
		errs = append(errs, r.Errors...)
	}
	errs = append(errs, unknownFields(schema, raw, "")...)
	o := &CustomObject{}
	if md, ok := raw["metadata"]; ok {
		mb, _ := json.Marshal(md)
		strict, err := kjson.UnmarshalStrict(mb, &o.Metadata)
		errs = append(append(errs, strict...), err)
	}
	o.Spec, _ = raw["spec"].(map[string]any)
	return o, errors.Join(errs...)
}

// unknownFields lists the fields of v that s does not declare, below path:
// an object schema with properties and neither additionalProperties nor
// x-kubernetes-preserve-unknown-fields takes no other field. metadata is
// ObjectMeta's, checked by its type.
func unknownFields(s *spec.Schema, v any, path string) []error {
	var errs []error
	switch v := v.(type) {
	case map[string]any:
		if preserves(s) {
			return nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := strings.TrimPrefix(path+"."+k, ".")
			if p == "metadata" {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, unknownFields(&prop, v[k], p)...)
				continue
			}
			if ap := s.AdditionalProperties; ap != nil && (ap.Allows || ap.Schema != nil) {
				if ap.Schema != nil {
					errs = append(errs, unknownFields(ap.Schema, v[k], p)...)
				}
				continue
			}
			if len(s.Properties) > 0 || slices.Contains(s.Type, "object") {
				errs = append(errs, fmt.Errorf("unknown field %q", p))
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for i, x := range v {
				errs = append(errs, unknownFields(s.Items.Schema, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

func preserves(s *spec.Schema) bool {
	p, ok := s.Extensions.GetBool("x-kubernetes-preserve-unknown-fields")
	return ok && p
}
