package deploy

import (
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Render builds the kustomization in dir as `kubectl apply -k dir` (and
// `kustomize build dir`) would, and decodes every resulting document
// strictly into its k8s.io/api type (see Decode).
func Render(dir string) ([]Object, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	var objs []Object
	var errs []error
	for _, r := range m.Resources() {
		doc, err := r.AsYAML()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.CurId(), err))
			continue
		}
		o, err := Decode(doc)
		if err != nil {
			errs = append(errs, fmt.Errorf("kustomize build %s: %w", dir, err))
			continue
		}
		objs = append(objs, o)
	}
	return objs, errors.Join(errs...)
}
