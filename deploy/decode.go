package deploy

import (
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Object is one Kubernetes document decoded into its k8s.io/api type.
type Object struct {
	APIVersion, Kind string
	Name, Namespace  string
	Value            any // a pointer to the type kinds names, e.g. *appsv1.Deployment
}

// kinds are the apiVersion/kind pairs the manifests may use, each with the
// k8s.io/api type that decodes it. A kind missing here is refused: a new one
// is a deliberate addition, with its checks.
var kinds = map[string]func() any{
	"v1/ConfigMap":                           func() any { return new(corev1.ConfigMap) },
	"v1/Secret":                              func() any { return new(corev1.Secret) },
	"v1/Service":                             func() any { return new(corev1.Service) },
	"v1/ServiceAccount":                      func() any { return new(corev1.ServiceAccount) },
	"apps/v1/Deployment":                     func() any { return new(appsv1.Deployment) },
	"batch/v1/Job":                           func() any { return new(batchv1.Job) },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"policy/v1/PodDisruptionBudget":          func() any { return new(policyv1.PodDisruptionBudget) },
	"networking.k8s.io/v1/Ingress":           func() any { return new(networkingv1.Ingress) },
}

// Decode decodes one YAML document strictly into the k8s.io/api type of its
// apiVersion and kind: an unknown kind, an unknown or misspelt field (field
// names are case-sensitive, as the API server has them), a duplicate field
// or a value of the wrong type is an error. That is the schema check a
// server-side apply would do, without a server.
func Decode(doc []byte) (Object, error) {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return Object{}, fmt.Errorf("decode: %w", err)
	}
	var tm metav1.TypeMeta
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &tm); err != nil {
		return Object{}, fmt.Errorf("decode: %w", err)
	}
	if file, ok := crdSchemas[tm.APIVersion+"/"+tm.Kind]; ok {
		o, err := decodeCustom(js, file)
		if err != nil {
			return Object{}, fmt.Errorf("decode %s %s: %w", tm.Kind, o.Metadata.Name, err)
		}
		return Object{APIVersion: tm.APIVersion, Kind: tm.Kind, Name: o.Metadata.Name, Namespace: o.Metadata.Namespace, Value: o}, nil
	}
	newValue, ok := kinds[tm.APIVersion+"/"+tm.Kind]
	if !ok {
		return Object{}, fmt.Errorf("decode: unknown kind %q of apiVersion %q", tm.Kind, tm.APIVersion)
	}
	v := newValue()
	strict, err := kjson.UnmarshalStrict(js, v)
	if err != nil {
		return Object{}, fmt.Errorf("decode %s: %w", tm.Kind, err)
	}
	meta, ok := v.(metav1.Object)
	if !ok {
		return Object{}, fmt.Errorf("decode %s: %T has no object metadata", tm.Kind, v)
	}
	if err := errors.Join(strict...); err != nil {
		return Object{}, fmt.Errorf("decode %s %s: %w", tm.Kind, meta.GetName(), err)
	}
	return Object{APIVersion: tm.APIVersion, Kind: tm.Kind, Name: meta.GetName(), Namespace: meta.GetNamespace(), Value: v}, nil
}
