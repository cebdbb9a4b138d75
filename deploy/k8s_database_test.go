package deploy

import (
	"net/url"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestK8sDatabase: each overlay deploys the CloudNativePG Cluster okf-db
// (valid against the operator's schema: Render decodes it), one primary
// and two standbys, and the example Secret points DATABASE_URL at its
// primary's Service and DATABASE_READ_URL at its standbys'.
func TestK8sDatabase(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, namespace string, m manifest) {
		db := named[CustomObject](m, "okf-db")
		if db == nil {
			t.Fatal("no Cluster okf-db rendered")
		}
		if n, _ := db.Spec["instances"].(float64); n != 3 {
			t.Errorf("okf-db has %v instances, want 3 (a primary and two standbys)", db.Spec["instances"])
		}
		if db.Metadata.Namespace != namespace {
			t.Errorf("okf-db in namespace %q, want %q", db.Metadata.Namespace, namespace)
		}
	})
	b, err := os.ReadFile("k8s/secret.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Value.(*corev1.Secret)
	for key, host := range map[string]string{"DATABASE_URL": "okf-db-rw", "DATABASE_READ_URL": "okf-db-ro"} {
		u, err := url.Parse(s.StringData[key])
		if err != nil || u.Hostname() != host || strings.TrimPrefix(u.Path, "/") != "okf" {
			t.Errorf("example %s=%q: want the database okf on Service %s", key, s.StringData[key], host)
		}
	}
}

// TestDecodeCustomResource: the operator's schema refuses what its API
// server would: an unknown field, a value of the wrong type or out of its
// bounds, an unknown enum value.
func TestDecodeCustomResource(t *testing.T) {
	ok := "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: db\nspec:\n  instances: 3\n  storage:\n    size: 1Gi\n"
	if _, err := Decode([]byte(ok)); err != nil {
		t.Fatalf("a valid Cluster: %v", err)
	}
	for name, doc := range map[string]string{
		"unknown field":       strings.Replace(ok, "  instances: 3", "  instance: 3", 1),
		"unknown nested":      strings.Replace(ok, "    size: 1Gi", "    sise: 1Gi", 1),
		"wrong type":          strings.Replace(ok, "  instances: 3", "  instances: three", 1),
		"below minimum":       strings.Replace(ok, "  instances: 3", "  instances: 0", 1),
		"unknown enum value":  strings.Replace(ok, "  instances: 3", "  instances: 3\n  primaryUpdateStrategy: whenever", 1),
		"unknown metadata":    strings.Replace(ok, "  name: db", "  name: db\n  labelz: {}", 1),
		"parameters not text": strings.Replace(ok, "  instances: 3", "  instances: 3\n  postgresql:\n    parameters:\n      work_mem: 16", 1),
	} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}
