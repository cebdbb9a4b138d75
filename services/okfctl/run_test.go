package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The import line make run prints is a shell command as it stands: the
// URL quoted, okfctl relative to the working directory when inside it, a
// password left out.
func TestImportHint(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url, okfctl, dir, want string
	}{
		{"private cluster", "postgres:///okf?host=%2Ftmp%2Fpg+s&port=5432&user=postgres&sslmode=disable", filepath.Join(wd, "bin", "okfctl"), "../shared/corpus/real",
			"DATABASE_URL='postgres:///okf?host=%2Ftmp%2Fpg+s&port=5432&user=postgres&sslmode=disable' bin/okfctl import ../shared/corpus/real"},
		{"okfctl beside", "postgres://db/okf", filepath.Join(wd, "okfctl"), "examples",
			"DATABASE_URL=postgres://db/okf ./okfctl import examples"},
		{"okfctl elsewhere", "postgres://db/okf", "/opt/okf/bin/okfctl", "my dir",
			"DATABASE_URL=postgres://db/okf /opt/okf/bin/okfctl import 'my dir'"},
		{"password left out", "postgres://ana:s3cr%27t@db:5432/okf", "/opt/okfctl", "examples",
			"DATABASE_URL=postgres://ana:PASSWORD@db:5432/okf /opt/okfctl import examples"},
		{"quote in a value", "postgres://db/o'kf", "/opt/okfctl", "examples",
			`DATABASE_URL='postgres://db/o'\''kf' /opt/okfctl import examples`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := importHint(tt.url, tt.okfctl, tt.dir)
			if got != tt.want {
				t.Errorf("importHint\n got %s\nwant %s", got, tt.want)
			}
			if strings.Contains(got, "s3cr") {
				t.Errorf("the password is printed: %s", got)
			}
		})
	}
	// A shell reads the line back into the same values.
	line := importHint("postgres:///okf?host=%2Ftmp&user=postgres", "/opt/okfctl", "it's here")
	out, err := exec.Command("sh", "-c", strings.Replace(line, "/opt/okfctl import", `sh -c 'printf "%s|%s\n" "$DATABASE_URL" "$1"' okfctl`, 1)).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "postgres:///okf?host=%2Ftmp&user=postgres|it's here" {
		t.Errorf("sh reads %q back from %s", got, line)
	}
}
