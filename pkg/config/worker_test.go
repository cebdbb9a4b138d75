package config

import (
	"slices"
	"testing"
)

func TestLoadWorker(t *testing.T) {
	w, err := LoadWorker(mapEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if w.OpsAddr != DefaultWorkerOpsAddr || w.RescueAfter != DefaultRescueAfter || w.Fetch.On() || w.Sweep != nil {
		t.Errorf("defaults: %+v", w)
	}
	w, err = LoadWorker(mapEnv(map[string]string{"OPS_ADDR": "0.0.0.0:9090", "OKF_WORKER_RESCUE_AFTER": "90m"}))
	if err != nil || w.OpsAddr != "0.0.0.0:9090" || w.RescueAfter.Minutes() != 90 {
		t.Errorf("set: %+v %v", w, err)
	}
	// Without a token the sweep is off and its variables are not read.
	if w, err := LoadWorker(mapEnv(map[string]string{"OKF_SWEEP_WORKERS": "0"})); err != nil || w.Sweep != nil {
		t.Errorf("sweep variables without GITHUB_TOKEN: %+v %v", w, err)
	}
	for _, bad := range []string{"3", "0s", "-1h", "soon"} {
		if _, err := LoadWorker(mapEnv(map[string]string{"OKF_WORKER_RESCUE_AFTER": bad})); err == nil {
			t.Errorf("OKF_WORKER_RESCUE_AFTER=%s accepted", bad)
		}
	}
}

func TestLoadWorkerSweep(t *testing.T) {
	env := map[string]string{
		"GITHUB_TOKEN":           "t",
		"OKF_SWEEP_SEEDS":        " acme/kb, Other/Repo ,",
		"OKF_SWEEP_QUERIES":      "okf in:name,description; topic:okf",
		"OKF_SWEEP_CODE_QUERIES": "off",
		"OKF_SWEEP_WORKERS":      "4",
	}
	w, err := LoadWorker(mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	c := w.Sweep
	if !slices.Equal(c.Seeds, []RepoName{{Owner: "acme", Name: "kb"}, {Owner: "Other", Name: "Repo"}}) ||
		!slices.Equal(c.Queries, []string{"okf in:name,description", "topic:okf"}) || c.CodeQueries != nil || c.Workers != 4 {
		t.Fatalf("config: %+v", c)
	}
	w, err = LoadWorker(mapEnv(map[string]string{"GITHUB_TOKEN": "t"}))
	if err != nil || !slices.Equal(w.Sweep.Queries, DefaultSweepQueries) ||
		!slices.Equal(w.Sweep.CodeQueries, DefaultSweepCodeQueries) || w.Sweep.Workers != DefaultSweepWorkers || w.Sweep.Seeds != nil {
		t.Fatalf("defaults: %+v %v", w.Sweep, err)
	}
	for _, bad := range []map[string]string{
		{"OKF_SWEEP_SEEDS": "nope"}, {"OKF_SWEEP_SEEDS": "a/b/c"}, {"OKF_SWEEP_SEEDS": "/b"},
		{"OKF_SWEEP_WORKERS": "0"}, {"OKF_SWEEP_WORKERS": "101"}, {"OKF_SWEEP_WORKERS": "two"},
	} {
		bad["GITHUB_TOKEN"] = "t"
		if _, err := LoadWorker(mapEnv(bad)); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func mapEnv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
