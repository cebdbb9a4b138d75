// Package ops is the operator listener (OPS_ADDR) that the API and the
// worker serve beside their work: liveness and readiness probes for
// orchestrators and Prometheus metrics. Its paths are constants here so the
// deployment manifests and their tests name exactly what the processes serve.
package ops

// Paths served on the operator listener.
const (
	LivePath    = "/livez"    // liveness: the process answers; never touches the database
	ReadyPath   = "/readyz"   // readiness: the database answers
	MetricsPath = "/metrics"  // Prometheus text exposition
	RiverUIPath = "/riverui/" // River UI, API process only, behind METRICS_TOKEN
)
