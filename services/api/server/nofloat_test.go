package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoFloatNearMoney: the files that handle money (prices, payments,
// credit, the contact charge) name no float type and write no float
// literal; money is integer micro-dollars end to end.
func TestNoFloatNearMoney(t *testing.T) {
	files := []string{"contact/contact.go",
		"../../../pkg/store/credit.go", "../../../pkg/store/contact.go",
		"partners/partners.go", "metrics/finance.go", "../../../pkg/store/finance.go"}
	billingFiles, err := filepath.Glob("billing/*.go")
	if err != nil || len(billingFiles) == 0 {
		t.Fatalf("package billing not found: %v", err)
	}
	files = append(files, billingFiles...)
	partnersFiles, err := filepath.Glob("../../../pkg/partners/*.go")
	if err != nil || len(partnersFiles) == 0 {
		t.Fatalf("pkg/partners not found: %v", err)
	}
	files = append(files, partnersFiles...)
	x402, err := filepath.Glob("../../../pkg/x402/*.go")
	if err != nil || len(x402) == 0 {
		t.Fatalf("pkg/x402 not found: %v", err)
	}
	files = append(files, x402...)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fs := token.NewFileSet()
		file, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.Name == "float32" || n.Name == "float64" || n.Name == "ParseFloat" {
					t.Errorf("%s: %s near money", fs.Position(n.Pos()), n.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.FLOAT {
					t.Errorf("%s: float literal %s near money", fs.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
	}
}

// TestNoFloatColumnsForMoney: the payments migration has no float column.
func TestNoFloatColumnsForMoney(t *testing.T) {
	b, err := os.ReadFile("../../../db/migrations/0011_payments.sql")
	if err != nil {
		t.Fatal(err)
	}
	// SQL only: the comment lines are prose.
	sql := regexp.MustCompile(`(?m)--.*$`).ReplaceAll(b, nil)
	if m := regexp.MustCompile(`(?i)\b(real|float\d*|double precision|numeric|money)\b`).Find(sql); m != nil {
		t.Fatalf("0011_payments.sql has a non-integer money type: %s", m)
	}
}
