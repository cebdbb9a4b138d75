// Package deploy checks the deployment files of OKF Index offline: the
// Dockerfiles beside this file, docker-compose.yml and .env.example at the
// repository root, and the kustomize tree under k8s/. No Docker engine or
// cluster runs where the tests run, so each file is read by the library the
// real tool uses (compose-go for Compose, kustomize's krusty for kubectl -k)
// and every rendered Kubernetes document is decoded strictly into its
// k8s.io/api type, which is what an API server's schema check would refuse.
//
// The package holds parsers and loaders only; the rules the files must obey
// live in the tests. Nothing here is imported by the services.
package deploy

// RepoRoot is the repository root relative to this package's directory,
// where go test runs.
const RepoRoot = ".."
