// Package faults holds the fault runs of the service: tests that break a
// dependency of a running API and worker (Postgres stopped and started
// again, a read-only database) under load over loopback HTTP, and give a
// verdict on how the service answered and how soon it recovered. Each run
// is a TestFault... function and logs its figures (answers by kind, time to
// recover) with t.Logf.
//
// `make faults` runs every TestFault of the repository with OKF_FAULTS=1
// and -v; `make test` runs them too (OKF_FAULTS=1). A run that takes more
// than about 30 seconds skips itself unless OKF_FAULTS is set, so a bare
// go test stays quick. The package has no
// code of its own outside its tests.
package faults
