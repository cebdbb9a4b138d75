package deploy

import (
	"net"
	"path"
	"slices"
	"strconv"
	"testing"

	"github.com/okfindex/okf-index/pkg/ops"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// workload is a pod template and what owns it.
type workload struct {
	kind, name string
	labels     map[string]string
	spec       corev1.PodSpec
}

// workloads lists the pod templates of the rendered Deployments and Jobs.
func workloads(m manifest) []workload {
	var out []workload
	for _, d := range all[appsv1.Deployment](m) {
		out = append(out, workload{"Deployment", d.Name, d.Spec.Template.Labels, d.Spec.Template.Spec})
	}
	for _, j := range all[batchv1.Job](m) {
		out = append(out, workload{"Job", j.Name, j.Spec.Template.Labels, j.Spec.Template.Spec})
	}
	return out
}

func workloadNamed(ws []workload, name string) workload {
	for _, w := range ws {
		if w.name == name {
			return w
		}
	}
	return workload{}
}

// containers lists a pod's init and main containers.
func containers(spec corev1.PodSpec) []corev1.Container {
	return append(slices.Clone(spec.InitContainers), spec.Containers...)
}

// containerPort finds the port a probe or Service names, by name or number,
// among the ports the container declares.
func containerPort(c corev1.Container, p intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, cp := range c.Ports {
		if p.Type == intstr.String && cp.Name == p.StrVal || p.Type == intstr.Int && cp.ContainerPort == p.IntVal {
			return cp, true
		}
	}
	return corev1.ContainerPort{}, false
}

// argv is what a container runs: its command, or the image's ENTRYPOINT,
// followed by its args.
func argv(c corev1.Container, d Dockerfile) []string {
	cmd := c.Command
	if len(cmd) == 0 {
		cmd = d.Final().Entrypoint
	}
	return append(slices.Clone(cmd), c.Args...)
}

// TestK8sContainers: each container runs an image a Dockerfile here builds,
// starts that image's binary, is bounded in resources and runs locked down.
func TestK8sContainers(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, _ string, m manifest) {
		cm := m.config(t).Name
		for _, w := range workloads(m) {
			for _, c := range containers(w.spec) {
				id := w.name + "/" + c.Name
				d, ok := imageBinary(t, c.Image)
				if ok {
					bin, _ := d.Binary()
					if run := argv(c, d); len(run) == 0 || path.Base(run[0]) != bin {
						t.Errorf("%s runs %q; its image %s holds %s", id, run, c.Image, bin)
					}
					if uid := userID(d.Final().User); uid > 0 && effectiveUser(w.spec, c) != int64(uid) {
						t.Errorf("%s runAsUser %d, image USER %s", id, effectiveUser(w.spec, c), d.Final().User)
					}
				}
				checkResources(t, id, c.Resources)
				checkSecurity(t, id, w.spec.SecurityContext, c.SecurityContext)
				if w.kind == "Deployment" && !slices.ContainsFunc(c.EnvFrom, func(e corev1.EnvFromSource) bool {
					return e.ConfigMapRef != nil && e.ConfigMapRef.Name == cm
				}) {
					t.Errorf("%s does not read the ConfigMap %s", id, cm)
				}
			}
		}
	})
}

func checkResources(t *testing.T, id string, r corev1.ResourceRequirements) {
	t.Helper()
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, hasReq := r.Requests[name]
		lim, hasLim := r.Limits[name]
		switch {
		case !hasReq || req.IsZero():
			t.Errorf("%s: no %s request", id, name)
		case !hasLim || lim.IsZero():
			t.Errorf("%s: no %s limit", id, name)
		case req.Cmp(lim) > 0:
			t.Errorf("%s: %s request %s above its limit %s", id, name, req.String(), lim.String())
		}
	}
}

// checkSecurity holds a container to the restricted Pod Security Standard
// plus a read-only root filesystem; pod-level settings count where
// Kubernetes lets them apply to the container.
func checkSecurity(t *testing.T, id string, pod *corev1.PodSecurityContext, c *corev1.SecurityContext) {
	t.Helper()
	if pod == nil {
		pod = &corev1.PodSecurityContext{}
	}
	if c == nil {
		t.Errorf("%s: no securityContext", id)
		return
	}
	nonRoot := c.RunAsNonRoot
	if nonRoot == nil {
		nonRoot = pod.RunAsNonRoot
	}
	user := c.RunAsUser
	if user == nil {
		user = pod.RunAsUser
	}
	seccomp := c.SeccompProfile
	if seccomp == nil {
		seccomp = pod.SeccompProfile
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{nonRoot != nil && *nonRoot, "runAsNonRoot: true"},
		{user != nil && *user > 0, "a numeric non-root runAsUser"},
		{c.ReadOnlyRootFilesystem != nil && *c.ReadOnlyRootFilesystem, "readOnlyRootFilesystem: true"},
		{c.AllowPrivilegeEscalation != nil && !*c.AllowPrivilegeEscalation, "allowPrivilegeEscalation: false"},
		{c.Privileged == nil || !*c.Privileged, "not privileged"},
		{c.Capabilities != nil && slices.Contains(c.Capabilities.Drop, "ALL") && len(c.Capabilities.Add) == 0, "capabilities drop ALL, add none"},
		{seccomp != nil && seccomp.Type == corev1.SeccompProfileTypeRuntimeDefault, "seccompProfile RuntimeDefault"},
	}
	for _, ch := range checks {
		if !ch.ok {
			t.Errorf("%s: securityContext lacks %s", id, ch.what)
		}
	}
}

func effectiveUser(pod corev1.PodSpec, c corev1.Container) int64 {
	if c.SecurityContext != nil && c.SecurityContext.RunAsUser != nil {
		return *c.SecurityContext.RunAsUser
	}
	if pod.SecurityContext != nil && pod.SecurityContext.RunAsUser != nil {
		return *pod.SecurityContext.RunAsUser
	}
	return -1
}

// TestK8sProbes: the long-running containers are probed over HTTP on the
// operator listener, at pkg/ops's paths, through a port they declare, and
// declare the ports their configured listeners use.
func TestK8sProbes(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, _ string, m manifest) {
		data := m.config(t).Data
		listenPort := func(v string) int32 {
			_, p, err := net.SplitHostPort(data[v])
			n, err2 := strconv.Atoi(p)
			if err != nil || err2 != nil {
				t.Fatalf("%s=%q is no host:port", v, data[v])
			}
			return int32(n)
		}
		opsPort, apiPort := listenPort("OPS_ADDR"), listenPort("API_ADDR")

		for _, w := range workloads(m) {
			if w.kind != "Deployment" {
				continue
			}
			for _, c := range w.spec.Containers {
				id := w.name + "/" + c.Name
				probes := []struct {
					kind  string
					probe *corev1.Probe
					path  string
				}{
					{"liveness", c.LivenessProbe, ops.LivePath},
					{"readiness", c.ReadinessProbe, ops.ReadyPath},
				}
				for _, p := range probes {
					if p.probe == nil || p.probe.HTTPGet == nil {
						t.Errorf("%s: no HTTP %s probe", id, p.kind)
						continue
					}
					g := p.probe.HTTPGet
					if g.Path != p.path {
						t.Errorf("%s: %s probe path %s, want %s", id, p.kind, g.Path, p.path)
					}
					cp, ok := containerPort(c, g.Port)
					if !ok {
						t.Errorf("%s: %s probe port %s is not declared by the container", id, p.kind, g.Port.String())
					} else if cp.ContainerPort != opsPort {
						t.Errorf("%s: %s probe on port %d, OPS_ADDR listens on %d", id, p.kind, cp.ContainerPort, opsPort)
					}
				}
				if _, ok := containerPort(c, intstr.FromString("ops")); !ok {
					t.Errorf("%s declares no port named ops", id)
				}
				if w.name == "okf-api" {
					if cp, ok := containerPort(c, intstr.FromString("http")); !ok || cp.ContainerPort != apiPort {
						t.Errorf("%s: port http %+v, API_ADDR listens on %d", id, cp, apiPort)
					}
				}
			}
		}
	})
}

// TestK8sMigrateJob: the Job runs `okfctl migrate` once, without restarts
// piling up.
func TestK8sMigrateJob(t *testing.T) {
	forEachOverlay(t, func(t *testing.T, _, _ string, m manifest) {
		j := named[batchv1.Job](m, "okf-migrate")
		if j == nil {
			t.Fatal("no Job okf-migrate")
		}
		spec := j.Spec.Template.Spec
		if len(spec.Containers) != 1 {
			t.Fatalf("Job has %d containers, want 1", len(spec.Containers))
		}
		c := spec.Containers[0]
		d, ok := imageBinary(t, c.Image)
		if !ok {
			return
		}
		run := argv(c, d)
		if len(run) != 2 || path.Base(run[0]) != "okfctl" || run[1] != "migrate" {
			t.Errorf("Job runs %q, want okfctl migrate", run)
		}
		if p := spec.RestartPolicy; p != corev1.RestartPolicyNever && p != corev1.RestartPolicyOnFailure {
			t.Errorf("Job restartPolicy %q", p)
		}
		if j.Spec.BackoffLimit == nil || j.Spec.ActiveDeadlineSeconds == nil {
			t.Error("Job has no backoffLimit or activeDeadlineSeconds: a broken database would retry it forever")
		}
	})
}
