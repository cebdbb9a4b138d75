package deploy

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/sirupsen/logrus"
	"sigs.k8s.io/yaml"
)

// LoadCompose loads a compose file the way `docker compose --env-file
// envFile config` does, through compose-go, the loader the compose plugin is
// built on: the compose-spec schema, interpolation, merge keys, and the
// consistency checks (a depends_on, volume or network naming nothing is an
// error). Only envFile's variables are seen, never the process environment,
// so the result does not depend on who runs it.
//
// warnings holds what the loader logged while loading, such as "The "X"
// variable is not set. Defaulting to a blank string.": compose prints those
// and goes on, so they are returned for the caller to judge.
func LoadCompose(ctx context.Context, file, envFile string) (project *types.Project, warnings []string, err error) {
	opts, err := cli.NewProjectOptions([]string{file},
		cli.WithWorkingDirectory(filepath.Dir(file)),
		cli.WithEnvFiles(envFile),
		cli.WithDotEnv,
	)
	if err != nil {
		return nil, nil, fmt.Errorf("compose %s: options: %w", file, err)
	}
	err = captureLog(&warnings, func() error {
		project, err = opts.LoadProject(ctx)
		return err
	})
	if err != nil {
		return nil, warnings, fmt.Errorf("compose %s: %w", file, err)
	}
	return project, warnings, nil
}

// ComposeVariables lists the ${...} variables a compose file uses, with the
// default each gives, read from the file as written (before interpolation).
func ComposeVariables(file string) (map[string]template.Variable, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	var model map[string]any
	if err := yaml.Unmarshal(b, &model); err != nil {
		return nil, fmt.Errorf("compose %s: %w", file, err)
	}
	return template.ExtractVariables(model, template.DefaultPattern), nil
}

// ReadEnvFile reads a .env file with compose's own dotenv parser.
func ReadEnvFile(file string) (map[string]string, error) {
	env, err := dotenv.Read(file)
	if err != nil {
		return nil, fmt.Errorf("env file %s: %w", file, err)
	}
	return env, nil
}

// logMu serialises captureLog: compose-go logs through logrus's global
// logger, so two loads at once would see each other's warnings.
var logMu sync.Mutex

// captureLog runs f with logrus's standard logger diverted into *lines.
func captureLog(lines *[]string, f func() error) error {
	logMu.Lock()
	defer logMu.Unlock()
	std := logrus.StandardLogger()
	out, hooks := std.Out, std.ReplaceHooks(logrus.LevelHooks{})
	defer func() {
		std.SetOutput(out)
		std.ReplaceHooks(hooks)
	}()
	std.SetOutput(io.Discard)
	std.AddHook(lineHook{lines})
	return f()
}

type lineHook struct{ lines *[]string }

func (lineHook) Levels() []logrus.Level { return logrus.AllLevels }

func (h lineHook) Fire(e *logrus.Entry) error {
	if e.Level <= logrus.WarnLevel {
		*h.lines = append(*h.lines, e.Message)
	}
	return nil
}
