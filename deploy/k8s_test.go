package deploy

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	kusttypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"
)

// overlays are the deployable kustomizations and what each must set.
var overlays = []struct {
	dir, variant, namespace string
}{
	{"k8s/overlays/base", "base", "okf-index"},
	{"k8s/overlays/full", "full", "okf-index-full"},
	{"k8s/overlays/full-development-only", "full", "okf-index-dev"},
}

// secretName and secretKeys are the Secret the manifests reference and the
// keys they may read from it; DATABASE_URL alone is required.
const secretName = "okf-index-secrets"

var secretKeys = []string{"DATABASE_URL", "DATABASE_READ_URL", "GITHUB_TOKEN", "METRICS_TOKEN", "AUTH_CSRF_SECRET"}

// manifest is one overlay rendered.
type manifest struct{ objs []Object }

var (
	renderMu sync.Mutex
	renders  = map[string]manifest{}
)

// render builds an overlay once per test binary.
func render(t *testing.T, dir string) manifest {
	t.Helper()
	renderMu.Lock()
	defer renderMu.Unlock()
	if m, ok := renders[dir]; ok {
		return m
	}
	objs, err := Render(dir)
	if err != nil {
		t.Fatal(err)
	}
	renders[dir] = manifest{objs}
	return renders[dir]
}

// forEachOverlay runs f as a subtest per overlay.
func forEachOverlay(t *testing.T, f func(t *testing.T, variant, namespace string, m manifest)) {
	for _, ov := range overlays {
		t.Run(ov.variant, func(t *testing.T) { f(t, ov.variant, ov.namespace, render(t, ov.dir)) })
	}
}

// all returns the rendered objects of type T.
func all[T any](m manifest) []*T {
	var out []*T
	for _, o := range m.objs {
		if v, ok := o.Value.(*T); ok {
			out = append(out, v)
		}
	}
	return out
}

// named returns the rendered object of type T called name, or nil.
func named[T any](m manifest, name string) *T {
	for _, o := range m.objs {
		if v, ok := o.Value.(*T); ok && o.Name == name {
			return v
		}
	}
	return nil
}

// config is the overlay's one ConfigMap of non-secret environment.
func (m manifest) config(t *testing.T) *corev1.ConfigMap {
	t.Helper()
	cms := all[corev1.ConfigMap](m)
	if len(cms) != 1 || !strings.HasPrefix(cms[0].Name, "okf-index-config-") {
		t.Fatalf("want one generated ConfigMap okf-index-config-<hash>, have %d", len(cms))
	}
	return cms[0]
}

// TestK8sKinds: each overlay renders every resource the deployment needs.
func TestK8sKinds(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, namespace string, m manifest) {
		want := []struct {
			kind, name string
			found      bool
		}{
			{"Deployment", "okf-api", named[appsv1.Deployment](m, "okf-api") != nil},
			{"Service", "okf-api", named[corev1.Service](m, "okf-api") != nil},
			{"HorizontalPodAutoscaler", "okf-api", named[autoscalingv2.HorizontalPodAutoscaler](m, "okf-api") != nil},
			{"PodDisruptionBudget", "okf-api", named[policyv1.PodDisruptionBudget](m, "okf-api") != nil},
			{"Ingress", "okf-api", named[networkingv1.Ingress](m, "okf-api") != nil},
			{"Deployment", "okf-worker", named[appsv1.Deployment](m, "okf-worker") != nil},
			{"HorizontalPodAutoscaler", "okf-worker", named[autoscalingv2.HorizontalPodAutoscaler](m, "okf-worker") != nil},
			{"Job", "okf-migrate", named[batchv1.Job](m, "okf-migrate") != nil},
		}
		for _, w := range want {
			if !w.found {
				t.Errorf("no %s %s rendered", w.kind, w.name)
			}
		}
		m.config(t)
		for _, o := range m.objs {
			if o.Namespace != namespace {
				t.Errorf("%s %s in namespace %q, want %q", o.Kind, o.Name, o.Namespace, namespace)
			}
		}
	})
}

// TestK8sSecrets: no secret value is rendered; the pods read secrets only
// by reference to the one Secret the operator creates.
func TestK8sSecrets(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, _ string, m manifest) {
		for _, s := range all[corev1.Secret](m) {
			t.Errorf("Secret %s is rendered (%d data, %d stringData keys): secrets are created by the operator, not committed",
				s.Name, len(s.Data), len(s.StringData))
		}
		for key := range m.config(t).Data {
			if slices.Contains(secretKeys, key) {
				t.Errorf("ConfigMap holds %s, a secret", key)
			}
		}
		for _, w := range workloads(m) {
			for _, c := range containers(w.spec) {
				hasDB := false
				for _, e := range c.Env {
					ref := (*corev1.SecretKeySelector)(nil)
					if e.ValueFrom != nil {
						ref = e.ValueFrom.SecretKeyRef
					}
					if slices.Contains(secretKeys, e.Name) && ref == nil {
						t.Errorf("%s/%s: %s is not read from a Secret", w.name, c.Name, e.Name)
					}
					if ref == nil {
						continue
					}
					if ref.Name != secretName || !slices.Contains(secretKeys, ref.Key) {
						t.Errorf("%s/%s: %s reads %s/%s, want a key of %s in %v", w.name, c.Name, e.Name, ref.Name, ref.Key, secretName, secretKeys)
					}
					required := ref.Optional == nil || !*ref.Optional
					if required != (ref.Key == "DATABASE_URL") {
						t.Errorf("%s/%s: %s optional=%v; only DATABASE_URL is required", w.name, c.Name, ref.Key, !required)
					}
					hasDB = hasDB || (e.Name == "DATABASE_URL" && ref.Key == "DATABASE_URL")
				}
				for _, ef := range c.EnvFrom {
					if ef.SecretRef != nil && ef.SecretRef.Name != secretName {
						t.Errorf("%s/%s: envFrom Secret %s, want %s", w.name, c.Name, ef.SecretRef.Name, secretName)
					}
				}
				if !hasDB {
					t.Errorf("%s/%s: DATABASE_URL is not read from %s", w.name, c.Name, secretName)
				}
			}
		}
	})
}

// TestK8sSecretExample: the example Secret documents exactly the keys the
// manifests read, and no kustomization applies it.
func TestK8sSecretExample(t *testing.T) {
	b, err := os.ReadFile("k8s/secret.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := o.Value.(*corev1.Secret)
	if !ok || s.Name != secretName {
		t.Fatalf("k8s/secret.example.yaml holds %s %s, want Secret %s", o.Kind, o.Name, secretName)
	}
	var keys []string
	for k, v := range s.StringData {
		keys = append(keys, k)
		if !strings.Contains(v, "REPLACE-ME") {
			t.Errorf("example %s=%q: want a REPLACE-ME placeholder, never a real value", k, v)
		}
	}
	slices.Sort(keys)
	if want := slices.Sorted(slices.Values(secretKeys)); !slices.Equal(keys, want) {
		t.Errorf("example keys %v, want %v", keys, want)
	}
	err = filepath.WalkDir("k8s", func(p string, e os.DirEntry, err error) error {
		if err != nil || e.Name() != "kustomization.yaml" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var k kusttypes.Kustomization
		if err := yaml.UnmarshalStrict(b, &k); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, r := range append(k.Resources, k.Components...) {
			if filepath.Base(r) == "secret.example.yaml" {
				t.Errorf("%s lists the example Secret", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestK8sConfig: the variant, the listeners and the public origin of each
// overlay, and that the Ingress serves the origin's host.
func TestK8sConfig(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, variant, _ string, m manifest) {
		data := m.config(t).Data
		if data["VARIANT"] != variant {
			t.Errorf("VARIANT=%q, want %q", data["VARIANT"], variant)
		}
		for _, v := range []string{"API_ADDR", "OPS_ADDR"} {
			if host, _, err := net.SplitHostPort(data[v]); err != nil || host != "0.0.0.0" {
				t.Errorf("%s=%q, want 0.0.0.0:<port>: the default 127.0.0.1 is unreachable in a pod", v, data[v])
			}
		}
		u, err := url.Parse(data["PUBLIC_BASE_URL"])
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Fatalf("PUBLIC_BASE_URL=%q, want an https origin", data["PUBLIC_BASE_URL"])
		}
		ing := named[networkingv1.Ingress](m, "okf-api")
		if ing == nil {
			t.Fatal("no Ingress okf-api")
		}
		for _, r := range ing.Spec.Rules {
			if r.Host != u.Hostname() {
				t.Errorf("Ingress host %s, PUBLIC_BASE_URL host %s", r.Host, u.Hostname())
			}
		}
		for _, tls := range ing.Spec.TLS {
			if !slices.Contains(tls.Hosts, u.Hostname()) {
				t.Errorf("Ingress TLS hosts %v lack %s", tls.Hosts, u.Hostname())
			}
		}
	})
}

// TestK8sWiring: selectors, autoscalers, the Service, the disruption
// budget and the Ingress all point at what exists.
func TestK8sWiring(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, _ string, m manifest) {
		pods := workloads(m)
		selects := func(sel *metav1.LabelSelector) []string {
			s, err := metav1.LabelSelectorAsSelector(sel)
			if err != nil {
				t.Fatalf("selector %v: %v", sel, err)
			}
			var out []string
			for _, w := range pods {
				if !s.Empty() && s.Matches(labels.Set(w.labels)) {
					out = append(out, w.name)
				}
			}
			return out
		}
		for _, d := range all[appsv1.Deployment](m) {
			if got := selects(d.Spec.Selector); !slices.Equal(got, []string{d.Name}) {
				t.Errorf("Deployment %s selects the pods of %v", d.Name, got)
			}
			if d.Spec.Replicas != nil {
				t.Errorf("Deployment %s sets replicas: its autoscaler owns the count", d.Name)
			}
		}
		scaled := map[string]bool{}
		for _, h := range all[autoscalingv2.HorizontalPodAutoscaler](m) {
			ref := h.Spec.ScaleTargetRef
			if ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || named[appsv1.Deployment](m, ref.Name) == nil {
				t.Errorf("HPA %s scales %s %s, which is not rendered", h.Name, ref.Kind, ref.Name)
			}
			if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 1 || *h.Spec.MinReplicas > h.Spec.MaxReplicas {
				t.Errorf("HPA %s: replicas %v..%d", h.Name, h.Spec.MinReplicas, h.Spec.MaxReplicas)
			}
			scaled[ref.Name] = true
		}
		for _, d := range all[appsv1.Deployment](m) {
			if !scaled[d.Name] {
				t.Errorf("Deployment %s has no autoscaler", d.Name)
			}
		}

		svc := named[corev1.Service](m, "okf-api")
		if svc == nil {
			t.Fatal("no Service okf-api")
		}
		if got := selects(&metav1.LabelSelector{MatchLabels: svc.Spec.Selector}); !slices.Equal(got, []string{"okf-api"}) {
			t.Errorf("Service okf-api selects the pods of %v", got)
		}
		api := workloadNamed(pods, "okf-api")
		for _, p := range svc.Spec.Ports {
			if _, ok := containerPort(api.spec.Containers[0], p.TargetPort); !ok {
				t.Errorf("Service port %s targets %s, which okf-api does not declare", p.Name, p.TargetPort.String())
			}
		}

		pdb := named[policyv1.PodDisruptionBudget](m, "okf-api")
		if pdb == nil {
			t.Fatal("no PodDisruptionBudget okf-api")
		}
		if got := selects(pdb.Spec.Selector); !slices.Equal(got, []string{"okf-api"}) {
			t.Errorf("PodDisruptionBudget selects the pods of %v", got)
		}
		if h := named[autoscalingv2.HorizontalPodAutoscaler](m, "okf-api"); h != nil && pdb.Spec.MinAvailable != nil &&
			int32(pdb.Spec.MinAvailable.IntValue()) >= *h.Spec.MinReplicas {
			t.Errorf("PodDisruptionBudget minAvailable %s >= HPA minReplicas %d: node drains would block", pdb.Spec.MinAvailable.String(), *h.Spec.MinReplicas)
		}

		ing := named[networkingv1.Ingress](m, "okf-api")
		for _, r := range ing.Spec.Rules {
			for _, p := range r.HTTP.Paths {
				b := p.Backend.Service
				if b == nil || b.Name != svc.Name {
					t.Errorf("Ingress path %s goes to %+v, want Service %s", p.Path, b, svc.Name)
					continue
				}
				i := slices.IndexFunc(svc.Spec.Ports, func(sp corev1.ServicePort) bool {
					return sp.Name == b.Port.Name && b.Port.Name != "" || sp.Port == b.Port.Number && b.Port.Number != 0
				})
				if i < 0 {
					t.Errorf("Ingress path %s goes to port %+v, which Service %s lacks", p.Path, b.Port, svc.Name)
				} else if tp := svc.Spec.Ports[i].TargetPort.String(); tp != "http" {
					t.Errorf("Ingress publishes the container port %s; only http is public", tp)
				}
			}
		}

		for _, w := range pods {
			if sa := w.spec.ServiceAccountName; sa != "" && named[corev1.ServiceAccount](m, sa) == nil {
				t.Errorf("%s runs as ServiceAccount %s, which is not rendered", w.name, sa)
			}
		}
	})
}
