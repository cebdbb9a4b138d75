package searchtext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/okf"
)

var languageCases = []struct {
	name, text, want string
}{
	{"empty", "", English},
	{"spaces and digits", "  42 \n", English},
	{"English prose", "A curated knowledge base for understanding the most important blockchains together.", English},
	{"names only", "Kubernetes Terraform Helm ArgoCD", English},
	{"one foreign stop word proves nothing", "Kubernetes Operator Die Casting", English},
	{"Portuguese question", "como integrar finanças com planilhas", Portuguese},
	{"Portuguese", "Conhecimento operacional do pipeline Leizilla — regras, convenções e contratos entre módulos.", Portuguese},
	{"Spanish", "Una colección de recetas para los que cocinan con poco tiempo y sin complicaciones.", Spanish},
	{"French", "Une base de connaissances sur les bases de données et leur utilisation dans le projet.", French},
	{"German", "Kuratiertes Wissen zum deutschen Recht: was gilt, als belegte Konzepte und nicht als Sammlung von Werkzeugen.", German},
	{"Italian", "Una raccolta di note sulla cucina della nonna e sulle ricette per il pranzo della domenica.", Italian},
	{"Dutch", "Een verzameling van notities over het bouwen van een huis en wat je daarvoor nodig hebt.", Dutch},
	{"stop words without accents match accented lists", "Nao e so isso: voce esta aqui para aprender, nao para copiar.", Portuguese},
	{"mostly English with a Portuguese phrase", "The guide to the pipeline and how it works with the store: um guia de uso.", English},
	{"all-caps acronyms are not stop words", "AI DE DA LA TA DI ML Agents", English},
	{"slug letters are not stop words", "urn:ngm:class:3-d-and-4-d urn:x:d-d-d-d-d-d 3-d-asset", English},
	{"Russian", "Руководство по настройке сервера и базы данных для проекта.", Russian},
	{"Turkish", "Çocuklar ve dijital dünya araştırmaları için bilgi tabanı ve veri gizliliği notları.", Turkish},
	{"English naming Turkish places", "A guide to the Istanbul office: how to reach Kadıköy and Beşiktaş by ferry, " +
		"and what the team does there on Fridays.", English},
	{"Chinese", "大模型研究与应用的知识库", Simple},
	{"Japanese with Latin names", "PharmacyDomain プロジェクトの設計ガイドライン、実装構成をまとめたナレッジベース", Simple},
	{"Korean", "한국어 검색 엔진 설계 문서", Simple},
	{"Greek has no stemmer here", "Οδηγός για τη βάση δεδομένων", Simple},
	{"English with a few CJK words", "A guide to the index and how it ranks bundles for 大模型 queries.", English},
}

func TestLanguage(t *testing.T) {
	for _, tt := range languageCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := Language(tt.text); got != tt.want {
				t.Errorf("Language(%q) = %s, want %s", tt.text, got, tt.want)
			}
		})
	}
}

func TestLanguageReadsABoundedPrefix(t *testing.T) {
	german := strings.Repeat("und die der das ist nicht mit ", 10)
	text := strings.Repeat("x ", languagePrefix/2) + german
	if got := Language(text); got != English {
		t.Errorf("Language read past %d bytes: got %s", languagePrefix, got)
	}
	if got := Language(german); got != German {
		t.Errorf("Language(German) = %s", got)
	}
}

// corpusRel is the shared corpus of real roots, beside the repository
// (where the workspace and CI lay it; storetest.CorpusDir finds the same
// folder, and like it this test fails rather than skips without it).
const corpusRel = "../../../shared/corpus/real"

// TestLanguageOnRealBundles reads real roots as the indexer will: the card
// fields okf.Parse finds, joined by spaces.
func TestLanguageOnRealBundles(t *testing.T) {
	if _, err := os.Stat(filepath.Join(corpusRel, "MANIFEST.tsv")); err != nil {
		t.Fatalf("the real corpus is not beside the repository: %v", err)
	}
	tests := []struct {
		path, want string
	}{
		{"saschb2b__okf-bundles/bundles/blockchain/index.md", English},
		{"saschb2b__okf-bundles/bundles/hello-okf/index.md", English},
		{"franklinbaldo__leizilla/docs/okf/index.md", Portuguese},
		{"saschb2b__okf-bundles/bundles/rezepte/index.md", German},
		{"saschb2b__okf-bundles/bundles/deutsches-recht/index.md", German},
		{"awesome-flexloop__awesome-okf/bundles/ai-agent/ai-agent-fundamentals/index.md", Simple},
		{"awesome-flexloop__awesome-okf/bundles/agnes-ai/index.md", Simple},
		{"SatohaCC__PharmacyDomain/okf/index.md", Simple},
		// Few stop words (Turkish says it with suffixes): told by ı, ğ, ş.
		{"urbanhobbit__bilgi-llm-wiki/okf-bundle/index.md", Turkish},
		// Slugs like "3-d-and-4-d" once made this English list French.
		{"DreamLab-AI__knowledgeGraph/okf/index.md", English},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusRel, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			card, err := okf.Parse(data, okf.Root{URL: "https://raw.githubusercontent.com/x/y/HEAD/" + tt.path, Label: "x/y"})
			if err != nil {
				t.Fatal(err)
			}
			fields := []string{card.Name, card.Tagline, card.Description}
			for _, c := range card.ConceptList {
				fields = append(fields, c.Name, c.Summary)
			}
			if got := Language(strings.Join(fields, " ")); got != tt.want {
				t.Errorf("Language = %s, want %s", got, tt.want)
			}
		})
	}
}
