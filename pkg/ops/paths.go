// Package ops is the operator listener (OPS_ADDR) that the API and the
// worker serve beside their work: liveness and readiness probes for
// orchestrators, Prometheus metrics, and, on the API, River UI behind the
// operator token. Its paths are constants here so the deployment manifests
// and their tests name exactly what the processes serve.
//
// It depends on github.com/prometheus/client_golang, the one library outside
// the fixed stack: the Prometheus exposition format and the collectors of Go
// runtime and process statistics are not in the standard library, and
// writing them by hand would be a second, worse client. v1.25.0, the newest
// release listed for the module proxy, builds on Go 1.26.8.
//
// Files:
//
//	paths.go      the paths
//	handler.go    the listener's handler: probes, metrics, River UI
//	auth.go       the METRICS_TOKEN check, of River UI and GET /api/metrics
//	collector.go  the database collectors read on each scrape
//	serve.go      starting and stopping the listener
package ops

// Paths served on the operator listener.
const (
	LivePath    = "/livez"    // liveness: the process answers; never touches the database
	ReadyPath   = "/readyz"   // readiness: the database answers
	MetricsPath = "/metrics"  // Prometheus text exposition
	RiverUIPath = "/riverui/" // River UI, API process only, behind METRICS_TOKEN
)
