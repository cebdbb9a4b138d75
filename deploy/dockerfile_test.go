package deploy

import (
	"bufio"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDockerfiles holds each image to what the deployments rely on: a
// static, stamped binary of the right package on a non-root base with
// nothing else in it, started by an exec-form ENTRYPOINT.
func TestDockerfiles(t *testing.T) {
	all, err := ParseDockerfiles(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(images) {
		t.Errorf("deploy/ has %d Dockerfiles, the table lists %d: add the new one", len(all), len(images))
	}
	for _, tc := range images {
		t.Run(tc.dockerfile, func(t *testing.T) {
			d, ok := all[tc.dockerfile]
			if !ok {
				t.Fatalf("%s is missing", tc.dockerfile)
			}
			builds := d.GoBuilds()
			if len(builds) != 1 {
				t.Fatalf("%d go build commands, want 1", len(builds))
			}
			b := builds[0]
			if got := path.Base(b.Output); got != tc.binary {
				t.Errorf("go build -o %s, want a binary named %s", b.Output, tc.binary)
			}
			if b.Package != tc.pkg {
				t.Errorf("go build %s, want %s", b.Package, tc.pkg)
			}
			if b.Env["CGO_ENABLED"] != "0" {
				t.Errorf("go build without CGO_ENABLED=0: the binary would not be static")
			}
			if !slices.Contains(b.Flags, "-trimpath") {
				t.Errorf("go build without -trimpath")
			}
			if !strings.Contains(b.LDFlags, "-X main.build=${BUILD}") {
				t.Errorf("-ldflags %q does not stamp main.build from ARG BUILD", b.LDFlags)
			}

			builder := d.Stages[0]
			if !strings.HasPrefix(builder.Base, "golang:1.26") {
				t.Errorf("builder FROM %s, want golang:1.26", builder.Base)
			}
			if def, ok := builder.Args["BUILD"]; !ok || def != "dev" {
				t.Errorf("builder has no ARG BUILD=dev (got %q, %v)", def, ok)
			}

			final := d.Final()
			if len(d.Stages) < 2 {
				t.Fatalf("not multi-stage: the toolchain would ship in the image")
			}
			distroless := strings.HasPrefix(final.Base, "gcr.io/distroless/static") && strings.HasSuffix(final.Base, ":nonroot")
			if !distroless && final.Base != "scratch" {
				t.Errorf("final FROM %s, want distroless static nonroot or scratch", final.Base)
			}
			if uid := userID(final.User); uid <= 0 {
				t.Errorf("final USER %q: want a numeric non-root uid, so runAsNonRoot can verify it", final.User)
			}
			if len(final.Runs) != 0 {
				t.Errorf("final stage has RUN: it must only carry the binary")
			}
			if len(final.Copies) != 1 || final.Copies[0].From != builder.Name ||
				!slices.Equal(final.Copies[0].Sources, []string{b.Output}) {
				t.Fatalf("final stage copies %+v, want only %s from stage %q", final.Copies, b.Output, builder.Name)
			}
			if final.ShellEntry || len(final.Entrypoint) != 1 {
				t.Fatalf("ENTRYPOINT %q: want the exec form naming the binary alone (no shell in the image)", final.Entrypoint)
			}
			if final.Entrypoint[0] != final.Copies[0].Dest {
				t.Errorf("ENTRYPOINT %s, but the binary is copied to %s", final.Entrypoint[0], final.Copies[0].Dest)
			}

			p, err := build.ImportDir(repoPath(tc.pkg), 0)
			if err != nil {
				t.Fatalf("go build %s: %v", tc.pkg, err)
			}
			if p.Name != "main" {
				t.Errorf("%s is package %s, not a command", tc.pkg, p.Name)
			}
		})
	}
}

// TestDockerfilesMatchMakefile keeps the images and `make build` building
// the same binaries from the same packages with the same stamp.
func TestDockerfilesMatchMakefile(t *testing.T) {
	f, err := os.Open(repoPath("Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byBinary := dockerfileByBinary(t)
	re := regexp.MustCompile(`go build .*-o bin/(\S+) (\./\S+)`)
	found := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		found++
		bin, pkg := m[1], m[2]
		d, ok := byBinary[bin]
		if !ok {
			t.Errorf("make build builds %s; no Dockerfile in deploy/ does", bin)
			continue
		}
		if got := d.GoBuilds()[0].Package; got != pkg {
			t.Errorf("make build builds %s from %s, %s from %s", bin, pkg, filepath.Base(d.Path), got)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if found != len(images) {
		t.Errorf("Makefile builds %d binaries, deploy/ has %d Dockerfiles", found, len(images))
	}
}

// TestParseDockerfile covers the parser on the shapes the Dockerfiles use.
func TestParseDockerfile(t *testing.T) {
	tests := []struct {
		name, text string
		wantBinary string
		wantPkg    string
		wantEntry  []string
		wantErr    bool
	}{
		{
			name: "continuations, RUN flags and quoted ldflags",
			text: "FROM --platform=$BUILDPLATFORM golang:1.26 AS build\nARG BUILD=dev\n" +
				"RUN --mount=type=cache,target=/go/pkg/mod \\\n    # a comment inside\n" +
				"    CGO_ENABLED=0 go build -trimpath -ldflags \"-s -w -X main.build=${BUILD}\" -o /out/app ./cmd/app\n" +
				"FROM scratch\nCOPY --from=build /out/app /app\nUSER 10001\nENTRYPOINT [\"/app\"]\n",
			wantBinary: "app", wantPkg: "./cmd/app", wantEntry: []string{"/app"},
		},
		{
			name:       "go build after && with ENV",
			text:       "FROM golang:1.26\nENV CGO_ENABLED=0\nRUN go mod download && go build -o bin/tool ./tool\nENTRYPOINT /bin/tool\n",
			wantBinary: "tool", wantPkg: "./tool", wantEntry: []string{"/bin/tool"},
		},
		{name: "no FROM", text: "RUN go build -o x .\n", wantErr: true},
		{name: "dangling continuation", text: "FROM scratch\nRUN echo \\\n", wantErr: true},
		{name: "bad exec form", text: "FROM scratch\nENTRYPOINT [\"/app\"\n", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.Dockerfile")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := ParseDockerfile(p)
			if tc.wantErr {
				if err == nil {
					t.Fatal("parsed; want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			bin, err := d.Binary()
			if err != nil || bin != tc.wantBinary {
				t.Errorf("Binary() = %q, %v; want %q", bin, err, tc.wantBinary)
			}
			if b := d.GoBuilds()[0]; b.Package != tc.wantPkg || b.Env["CGO_ENABLED"] != "0" {
				t.Errorf("go build = %+v; want package %s with CGO_ENABLED=0", b, tc.wantPkg)
			}
			if got := d.Final().Entrypoint; !slices.Equal(got, tc.wantEntry) {
				t.Errorf("Entrypoint = %q, want %q", got, tc.wantEntry)
			}
		})
	}
}

// userID is the numeric uid of a USER value ("65532" or "65532:65532"),
// or -1 when it is a name or empty.
func userID(user string) int {
	u, _, _ := strings.Cut(user, ":")
	n, err := strconv.Atoi(u)
	if err != nil {
		return -1
	}
	return n
}
