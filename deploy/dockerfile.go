package deploy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Dockerfile is what the deployment checks need from a Dockerfile: its
// stages and, per stage, the instructions that decide what ends up in the
// image. It is no general Dockerfile parser: heredocs, ONBUILD and parser
// directives other than comments are not understood.
type Dockerfile struct {
	Path   string
	Stages []Stage
}

// Stage is one FROM section of a Dockerfile.
type Stage struct {
	Name       string            // the AS name; "" for an unnamed stage
	Base       string            // the image FROM names
	Args       map[string]string // ARG name → default ("" when it has none)
	Env        map[string]string // ENV name → value
	Runs       [][]string        // each RUN's shell command, split into words; RUN's own --flags dropped
	Copies     []Copy            // COPY and ADD instructions
	User       string            // the last USER
	Entrypoint []string          // exec-form ENTRYPOINT; nil when absent
	ShellEntry bool              // true when ENTRYPOINT uses the shell form
	Expose     []string          // EXPOSE ports as written
}

// Copy is one COPY (or ADD) instruction.
type Copy struct {
	From    string   // the --from stage or image; "" for the build context
	Sources []string // as written, relative to the build context
	Dest    string
}

// GoBuild is one `go build` command found in a RUN instruction.
type GoBuild struct {
	Env     map[string]string // NAME=value words before `go`, merged over the stage's ENV
	Flags   []string          // every flag word, values included
	Output  string            // the -o value
	LDFlags string            // the -ldflags value
	Package string            // the package argument, e.g. ./services/api
}

// Final is the last stage, the one the image is made of.
func (d Dockerfile) Final() Stage { return d.Stages[len(d.Stages)-1] }

// GoBuilds lists the `go build` commands of every stage.
func (d Dockerfile) GoBuilds() []GoBuild {
	var out []GoBuild
	for _, s := range d.Stages {
		for _, words := range s.Runs {
			out = append(out, goBuilds(words, s.Env)...)
		}
	}
	return out
}

// Binary is the file name of the one binary the Dockerfile builds (the base
// of its `go build -o`), and an error unless exactly one go build names one.
func (d Dockerfile) Binary() (string, error) {
	builds := d.GoBuilds()
	if len(builds) != 1 {
		return "", fmt.Errorf("%s: %d go build commands, want 1", d.Path, len(builds))
	}
	if builds[0].Output == "" {
		return "", fmt.Errorf("%s: go build has no -o", d.Path)
	}
	return path.Base(builds[0].Output), nil
}

// ParseDockerfile reads the Dockerfile at p.
func ParseDockerfile(p string) (Dockerfile, error) {
	f, err := os.Open(p)
	if err != nil {
		return Dockerfile{}, fmt.Errorf("dockerfile: %w", err)
	}
	defer f.Close()
	d := Dockerfile{Path: p}
	instrs, err := instructions(bufio.NewScanner(f))
	if err != nil {
		return d, fmt.Errorf("dockerfile %s: %w", p, err)
	}
	for _, in := range instrs {
		if err := d.apply(in); err != nil {
			return d, fmt.Errorf("dockerfile %s line %d: %w", p, in.line, err)
		}
	}
	if len(d.Stages) == 0 {
		return d, fmt.Errorf("dockerfile %s: no FROM", p)
	}
	return d, nil
}

// ParseDockerfiles reads every *.Dockerfile in dir, keyed by file name.
func ParseDockerfiles(dir string) (map[string]Dockerfile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.Dockerfile"))
	if err != nil {
		return nil, err
	}
	out := make(map[string]Dockerfile, len(paths))
	for _, p := range paths {
		d, err := ParseDockerfile(p)
		if err != nil {
			return nil, err
		}
		out[filepath.Base(p)] = d
	}
	return out, nil
}

type instruction struct {
	line    int
	keyword string // upper case
	rest    string
}

// instructions joins continuation lines and drops comments and blank lines,
// as Docker's parser does (a comment line inside a continuation is skipped).
func instructions(sc *bufio.Scanner) ([]instruction, error) {
	var out []instruction
	var cur strings.Builder
	start, n := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		cont := strings.HasSuffix(line, `\`)
		cur.WriteString(strings.TrimSuffix(line, `\`))
		if cont {
			cur.WriteString(" ")
			continue
		}
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		kw, rest, _ := strings.Cut(text, " ")
		out = append(out, instruction{line: start, keyword: strings.ToUpper(kw), rest: strings.TrimSpace(rest)})
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("line %d: continuation runs past the end of the file", start)
	}
	return out, sc.Err()
}

func (d *Dockerfile) apply(in instruction) error {
	if in.keyword == "FROM" {
		words := stripFlags(splitWords(in.rest))
		if len(words) == 0 {
			return fmt.Errorf("FROM without an image")
		}
		s := Stage{Base: words[0], Args: map[string]string{}, Env: map[string]string{}}
		if len(words) == 3 && strings.EqualFold(words[1], "AS") {
			s.Name = words[2]
		}
		d.Stages = append(d.Stages, s)
		return nil
	}
	if len(d.Stages) == 0 {
		if in.keyword == "ARG" { // an ARG before the first FROM
			return nil
		}
		return fmt.Errorf("%s before FROM", in.keyword)
	}
	s := &d.Stages[len(d.Stages)-1]
	switch in.keyword {
	case "ARG":
		for _, w := range splitWords(in.rest) {
			name, def, _ := strings.Cut(w, "=")
			s.Args[name] = def
		}
	case "ENV":
		for _, w := range splitWords(in.rest) {
			if name, val, ok := strings.Cut(w, "="); ok {
				s.Env[name] = val
			}
		}
	case "RUN":
		s.Runs = append(s.Runs, stripFlags(splitWords(in.rest)))
	case "COPY", "ADD":
		c := Copy{}
		words := splitWords(in.rest)
		for len(words) > 0 && strings.HasPrefix(words[0], "--") {
			if v, ok := strings.CutPrefix(words[0], "--from="); ok {
				c.From = v
			}
			words = words[1:]
		}
		if len(words) < 2 {
			return fmt.Errorf("%s needs a source and a destination", in.keyword)
		}
		c.Sources, c.Dest = words[:len(words)-1], words[len(words)-1]
		s.Copies = append(s.Copies, c)
	case "USER":
		s.User = in.rest
	case "EXPOSE":
		s.Expose = append(s.Expose, strings.Fields(in.rest)...)
	case "ENTRYPOINT":
		if !strings.HasPrefix(in.rest, "[") {
			s.Entrypoint, s.ShellEntry = []string{in.rest}, true
			return nil
		}
		if err := json.Unmarshal([]byte(in.rest), &s.Entrypoint); err != nil {
			return fmt.Errorf("ENTRYPOINT: %w", err)
		}
	}
	return nil
}

// stripFlags drops the instruction's own leading --flags (--platform,
// --mount, ...), which are not part of its arguments.
func stripFlags(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "--") {
		words = words[1:]
	}
	return words
}

// goBuilds finds `go build` in a shell command split into words; commands
// joined by && or ; are looked at one by one.
func goBuilds(words []string, stageEnv map[string]string) []GoBuild {
	var out []GoBuild
	for _, cmd := range splitCommands(words) {
		env := map[string]string{}
		for k, v := range stageEnv {
			env[k] = v
		}
		i := 0
		for ; i < len(cmd); i++ {
			name, val, ok := strings.Cut(cmd[i], "=")
			if !ok || strings.HasPrefix(name, "-") {
				break
			}
			env[name] = val
		}
		if i+1 >= len(cmd) || cmd[i] != "go" || cmd[i+1] != "build" {
			continue
		}
		b := GoBuild{Env: env}
		args := cmd[i+2:]
		for j := 0; j < len(args); j++ {
			a := args[j]
			switch {
			case a == "-o" || a == "-ldflags":
				if j+1 < len(args) {
					if a == "-o" {
						b.Output = args[j+1]
					} else {
						b.LDFlags = args[j+1]
					}
					b.Flags = append(b.Flags, a, args[j+1])
					j++
				}
			case strings.HasPrefix(a, "-"):
				b.Flags = append(b.Flags, a)
			default:
				b.Package = a
			}
		}
		out = append(out, b)
	}
	return out
}

func splitCommands(words []string) [][]string {
	var out [][]string
	var cur []string
	for _, w := range words {
		if w == "&&" || w == ";" || w == "||" {
			out, cur = append(out, cur), nil
			continue
		}
		cur = append(cur, w)
	}
	return append(out, cur)
}

// splitWords splits s into shell words: blanks separate words; single and
// double quotes group and are removed. Variables are left as written.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}
