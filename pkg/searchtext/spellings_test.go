package searchtext

import (
	"slices"
	"testing"
)

func TestSpellings(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string
	}{
		{"colour", []string{"color"}},
		{"colors", []string{"colours"}},
		{"favourite", []string{"favorite"}},
		{"behavioural", []string{"behavioral"}},
		{"reharmonisation", []string{"reharmonization"}},
		{"reharmonization", []string{"reharmonisation"}},
		{"organise", []string{"organize"}},
		{"optimizing", []string{"optimising"}},
		{"analyse", []string{"analyze"}},
		{"analyzed", []string{"analysed"}},
		{"modelling", []string{"modeling"}},
		{"labeled", []string{"labelled"}},
		{"travellers", []string{"travelers"}},
		{"centre", []string{"center"}},
		{"catalog", []string{"catalogue"}},
		{"licence", []string{"license"}},
		{"paediatric", []string{"pediatric"}},
		// Words a rule would only garble keep none.
		{"rise", nil},
		{"size", nil},
		{"telling", nil},
		{"kubernetes", nil},
		{"col", nil},
		{"c0lour", nil},
		{"naïve", nil},
	} {
		if got := spellings(c.word); !slices.Equal(got, c.want) {
			t.Errorf("spellings(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestQuerySpellings(t *testing.T) {
	q := ParseQuery(`colour "colour contrast" -modelling`)
	if got := q.Terms[0].Spellings; !slices.Equal(got, []string{"color"}) {
		t.Errorf("colour: spellings %q", got)
	}
	if got := q.Terms[1].Spellings; got != nil {
		t.Errorf("a quoted phrase: spellings %q", got)
	}
	if got := q.Excluded[0].Spellings; !slices.Equal(got, []string{"modeling"}) {
		t.Errorf("-modelling: spellings %q", got)
	}
}
