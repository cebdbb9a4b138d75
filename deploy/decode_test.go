package deploy

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestDecode: what a server's schema check refuses, Decode refuses.
func TestDecode(t *testing.T) {
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	tests := []struct {
		name, doc string
		wantErr   string // "" for success
	}{
		{"valid", cm + "data:\n  A: b\n", ""},
		{"unknown field", cm + "datum:\n  A: b\n", `unknown field "datum"`},
		{"field in the wrong case", cm + "Data:\n  A: b\n", `unknown field "Data"`},
		{"nested unknown field", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    - port: 80\n      targetport: 8080\n", `unknown field "spec.ports[0].targetport"`},
		{"duplicate field", cm + "data:\n  A: b\n  A: c\n", "already set"},
		{"wrong type", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    - port: \"80\"\n", "port"},
		{"unknown kind", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n", `unknown kind "Pod"`},
		{"kind under the wrong version", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: i\n", "unknown kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Decode([]byte(tc.doc))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c, ok := o.Value.(*corev1.ConfigMap); !ok || c.Data["A"] != "b" || o.Name != "c" {
					t.Errorf("Decode = %+v", o)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Decode error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
