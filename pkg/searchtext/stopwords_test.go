package searchtext

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// installedStopWords is where Postgres 15 keeps the lists migration 0018's
// configurations use.
const installedStopWords = "/usr/share/postgresql/15/tsearch_data"

func TestEmbeddedStopWordsEqualInstalled(t *testing.T) {
	if _, err := os.Stat(installedStopWords); err != nil {
		// make test installs postgresql-15 (scripts/ensure-postgres.sh), and
		// every store test needs it: its absence is a broken machine.
		t.Fatalf("Postgres 15's stop word lists are not installed (apt-get install postgresql-15): %v", err)
	}
	for config, file := range stopFiles {
		embedded, err := stopwordFS.ReadFile("stopwords/" + file)
		if err != nil {
			t.Fatal(err)
		}
		installed, err := os.ReadFile(filepath.Join(installedStopWords, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(embedded, installed) {
			t.Errorf("%s: stopwords/%s differs from the installed %s", config, file, file)
		}
	}
}

func TestStopWordListsLoaded(t *testing.T) {
	for _, config := range Stemmed {
		if n := len(stopSets[config]); n < 50 {
			t.Errorf("%s has %d stop words", config, n)
		}
	}
	if len(stopSets[Simple]) != 0 || isStopWord(Simple, "the") {
		t.Errorf("Simple has stop words")
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"the", "the"},
		{"THE", "the"},
		{"Não", "nao"},
		{"Über", "uber"},
		{"él", "el"},
		{"Cafe\u0301", "cafe"},
		{"ещё", "еще"}, // unaccent maps ё to е
		{"мой", "мой"}, // but keeps й
		{"Й", "й"},
		{"aslında", "aslinda"}, // unaccent maps the dotless ı to i
		{"İçin", "icin"},
		{"大模型", "大模型"},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsStopWord(t *testing.T) {
	tests := []struct {
		config, word string
		want         bool
	}{
		{English, "the", true},
		{English, "The", true},
		{English, "kubernetes", false},
		{Portuguese, "não", true},
		{Portuguese, "NAO", true}, // accents and case do not matter
		{Portuguese, "com", true},
		{Spanish, "el", true},
		{Spanish, "él", true},
		{German, "über", true},
		{German, "uber", true},
		{French, "été", true},
		{Russian, "мой", true},
		{Russian, "ещё", true},
		{Dutch, "het", true},
		{Italian, "della", true},
		{English, "", false},
	}
	for _, tt := range tests {
		if got := isStopWord(tt.config, tt.word); got != tt.want {
			t.Errorf("isStopWord(%s, %q) = %v, want %v", tt.config, tt.word, got, tt.want)
		}
	}
}
