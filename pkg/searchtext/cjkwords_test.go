package searchtext

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCJKWords(t *testing.T) {
	for _, tt := range []struct {
		name, run string
		want      []string
	}{
		{"Japanese particle between words", "検索の設定", []string{"検索", "設定"}},
		{"particle after a word's own hiragana", "書き込みの設定", []string{"書き込み", "設定"}},
		{"particle at the start", "の設定", []string{"設定"}},
		{"longer particle", "権限について", []string{"権限"}},
		{"hiragana word left alone", "お知らせ", []string{"お知らせ"}},
		{"a one-character piece is not cut off", "一の設定", []string{"一の設定"}},
		{"Chinese function word", "数据的导入", []string{"数据", "导入"}},
		{"Chinese question word", "如何部署服务", []string{"部署服务"}},
		{"Chinese question word inside", "模型怎么训练", []string{"模型", "训练"}},
		{"traditional Chinese", "資料與格式", []string{"資料", "格式"}},
		{"function word at the end", "现在的", []string{"现在"}},
		{"two characters: whole", "目的", []string{"目的"}},
		{"no function word: whole", "大模型研究", []string{"大模型研究"}},
		{"function words only: whole", "的的的", []string{"的的的"}},
		{"Korean particle", "서버의", []string{"서버"}},
		{"Korean longer particle", "데이터베이스에서", []string{"데이터베이스"}},
		{"Korean two syllables: whole", "학교", []string{"학교"}},
		{"Korean without particle", "검색엔진", []string{"검색엔진"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := cjkWords(tt.run); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cjkWords(%q) = %q, want %q", tt.run, got, tt.want)
			}
		})
	}
}

// FuzzCJKWords: every word cjkWords returns of a run (a CJK segment of a
// token: never empty, valid UTF-8) is a non-empty substring of it, so that a bundle
// holding the run holds each of them.
func FuzzCJKWords(f *testing.F) {
	f.Add("検索の設定")
	f.Add("如何导入数据的格式")
	f.Add("데이터베이스에서")
	f.Add("のののの")
	f.Fuzz(func(t *testing.T, run string) {
		if run == "" || !utf8.ValidString(run) {
			return
		}
		words := cjkWords(run)
		if len(words) == 0 {
			t.Fatalf("cjkWords(%q) = nothing", run)
		}
		for _, w := range words {
			if w == "" || !strings.Contains(run, w) {
				t.Fatalf("cjkWords(%q) = %q: %q is not in the run", run, words, w)
			}
		}
	})
}
