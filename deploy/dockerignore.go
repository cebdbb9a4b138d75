package deploy

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// BuildContext is a docker build context: a directory and the .dockerignore
// at its root, read and matched by moby/patternmatcher, the code the Docker
// CLI and BuildKit use for it.
type BuildContext struct {
	Dir     string
	matcher *patternmatcher.PatternMatcher
}

// LoadBuildContext reads dir/.dockerignore (none: everything is sent).
func LoadBuildContext(dir string) (BuildContext, error) {
	var patterns []string
	f, err := os.Open(filepath.Join(dir, ".dockerignore"))
	switch {
	case err == nil:
		defer f.Close()
		if patterns, err = ignorefile.ReadAll(f); err != nil {
			return BuildContext{}, fmt.Errorf("build context %s: .dockerignore: %w", dir, err)
		}
	case !os.IsNotExist(err):
		return BuildContext{}, fmt.Errorf("build context %s: %w", dir, err)
	}
	m, err := patternmatcher.New(patterns)
	if err != nil {
		return BuildContext{}, fmt.Errorf("build context %s: .dockerignore: %w", dir, err)
	}
	return BuildContext{Dir: dir, matcher: m}, nil
}

// Sends reports whether the file at rel, a slash-separated path relative to
// the context directory, reaches the builder. Not safe for concurrent use.
func (c BuildContext) Sends(rel string) (bool, error) {
	excluded, err := c.matcher.MatchesOrParentMatches(rel)
	if err != nil {
		return false, fmt.Errorf("build context: match %s: %w", rel, err)
	}
	return !excluded, nil
}
