package okf

import (
	"strings"

	"github.com/okfindex/okf-index/pkg/safetext"
)

// listingHeadings are headings that name a listing rather than a bundle's
// subject. A root titled with one of them gets Root.FallbackName instead.
// They are compared case-insensitively, with whitespace collapsed and
// trailing ':' or '.' ignored.
//
// Decision: the list covers the headings generators write on top of a
// listing (the spec's reference agent writes "# Subdirectories";
// copperbox/okf-mcp "# Bundle Index"; shinzui/okf-profiles "# Files";
// the rite wiki "# Wiki Index") and two generic stand-ins for a title,
// "Knowledge Bundle" (claudiobottari/databricks-okf,
// essamrafie/okf-converter) and "OKF Bundle", which say what the file is but
// not what it is about. Section headings such as "Purpose", "Scope" or
// "Start here" are not listing headings: DESIGN takes the first H1 as the
// name, so they stay.
var listingHeadings = map[string]bool{
	"index":                     true,
	"bundle index":              true,
	"knowledge bundle index":    true,
	"knowledge index":           true,
	"okf index":                 true,
	"okf bundle index":          true,
	"root index":                true,
	"wiki index":                true,
	"concept index":             true,
	"concepts index":            true,
	"file index":                true,
	"files":                     true,
	"contents":                  true,
	"table of contents":         true,
	"toc":                       true,
	"subdirectories":            true,
	"directories":               true,
	"folders":                   true,
	"concepts":                  true,
	"entries":                   true,
	"sections":                  true,
	"knowledge bundle":          true,
	"okf bundle":                true,
	"okf knowledge bundle":      true,
	"open knowledge format":     true,
	"index of concepts":         true,
	"list of concepts":          true,
	"directory":                 true,
	"bundle contents":           true,
	"knowledge bundle contents": true,
}

// localizedListingHeadings are listing headings in other languages, as
// generators write them (Dateien, Archivos, Fichiers, Arquivos, File, 文件,
// 文件列表, ファイル, 파일 and their kin for contents, index and folders).
// A heading that is only such a word is no name, as in English. They are
// stored as written and lowered by init.
var localizedListingHeadings = []string{
	// German, Dutch
	"Dateien", "Inhalt", "Inhaltsverzeichnis", "Verzeichnis", "Verzeichnisse", "Ordner", "Bestanden", "Inhoud", "Mappen",
	// Spanish, Portuguese, Italian, Catalan
	"Archivos", "Contenido", "Contenidos", "Índice", "Carpetas", "Arquivos", "Conteúdo", "Sumário", "Pastas",
	"File", "Indice", "Contenuti", "Cartelle", "Fitxers",
	// French
	"Fichiers", "Sommaire", "Table des matières", "Dossiers", "Répertoires",
	// Polish, Czech, Turkish, Russian, Ukrainian
	"Pliki", "Spis treści", "Soubory", "Obsah", "Dosyalar", "İçindekiler", "Файлы", "Содержание", "Файли", "Зміст",
	// Chinese, Japanese, Korean
	"文件", "文件列表", "目录", "目錄", "文件夹", "檔案", "檔案列表", "ファイル", "ファイル一覧", "目次", "파일", "파일 목록", "목차",
}

func init() {
	for _, h := range localizedListingHeadings {
		listingHeadings[strings.ToLower(h)] = true
	}
}

// isListingHeading reports whether a title is a listing heading.
func isListingHeading(title string) bool {
	t := strings.ToLower(safetext.Line(title))
	t = strings.TrimRight(t, ":.： ")
	return listingHeadings[t]
}

// chooseName picks the card name: the frontmatter title, else the first
// non-empty H1, else the root's fallback name. A listing heading is no name.
//
// Decision: a frontmatter title that is itself a listing heading
// ("title: Index") gives way to the H1 before falling back, since the title
// is only a better source than the H1 when it says something.
func chooseName(title, h1 string, root Root) (name string, fellBack bool) {
	if title = safetext.Line(title); title != "" && !isListingHeading(title) {
		return title, false
	}
	if h1 != "" && !isListingHeading(h1) {
		return h1, false
	}
	return root.FallbackName(), true
}
