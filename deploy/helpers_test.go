package deploy

import (
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// images lists each Dockerfile of this directory with the binary it must
// build and the package it builds it from, the facts of `make build`.
var images = []struct {
	dockerfile, binary, pkg string
}{
	{"api.Dockerfile", "okf-api", "./services/api"},
	{"worker.Dockerfile", "okf-worker", "./services/worker"},
	{"okfctl.Dockerfile", "okfctl", "./services/okfctl"},
}

// imageRegistry is where the images are published; compose and the
// manifests name images ImageRegistry/<binary>.
const imageRegistry = "ghcr.io/okfindex/"

var (
	dockerfilesOnce sync.Once
	dockerfiles     map[string]Dockerfile // by binary
	dockerfilesErr  error
)

// dockerfileByBinary parses the Dockerfiles once and indexes them by the
// binary each builds.
func dockerfileByBinary(t *testing.T) map[string]Dockerfile {
	t.Helper()
	dockerfilesOnce.Do(func() {
		all, err := ParseDockerfiles(".")
		if err != nil {
			dockerfilesErr = err
			return
		}
		dockerfiles = map[string]Dockerfile{}
		for _, d := range all {
			bin, err := d.Binary()
			if err != nil {
				dockerfilesErr = err
				return
			}
			dockerfiles[bin] = d
		}
	})
	if dockerfilesErr != nil {
		t.Fatal(dockerfilesErr)
	}
	return dockerfiles
}

// imageBinary ties an image reference to the Dockerfile that builds it: the
// last path element of the repository is the binary's name. It also
// requires the registry and an explicit tag other than latest, so a
// deployment names the build it runs.
func imageBinary(t *testing.T, ref string) (Dockerfile, bool) {
	t.Helper()
	repo, _, _ := strings.Cut(ref, "@")
	tag := ""
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo, tag = repo[:i], repo[i+1:]
	}
	if !strings.HasPrefix(repo, imageRegistry) {
		t.Errorf("image %q: not under %s", ref, imageRegistry)
	}
	if tag == "" || tag == "latest" {
		t.Errorf("image %q: no pinned tag", ref)
	}
	d, ok := dockerfileByBinary(t)[path.Base(repo)]
	if !ok {
		t.Errorf("image %q: no Dockerfile in deploy/ builds %s", ref, path.Base(repo))
	}
	return d, ok
}

// repoPath is a path of the repository, from this package's directory.
func repoPath(rel string) string { return filepath.Join(RepoRoot, filepath.FromSlash(rel)) }
