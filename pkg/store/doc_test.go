package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doc.go's file list names every non-test Go file of the package.
func TestDocListsEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") && !strings.Contains(string(doc), "//\t"+f+" ") {
			t.Errorf("doc.go's file list lacks %s", f)
		}
	}
}
