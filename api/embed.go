// Package api holds the published contract files of the service: the
// OpenAPI document, llms.txt and the service's own documentation as an OKF
// bundle (okf/*.md). They are embedded so the API binary serves exactly what
// is committed here and tests validate real responses against them. The
// texts write the service's public base URL as {{BASE_URL}}; the API
// substitutes the configured one.
package api

import (
	"embed"
	"strings"
)

// OpenAPI is the OpenAPI 3.1 document of every route of both variants.
//
//go:embed openapi.json
var OpenAPI []byte

// LLMs is llms.txt.
//
//go:embed llms.txt
var LLMs string

//go:embed okf/*.md
var okfFiles embed.FS

// OKFFiles are the names of the documentation bundle's files, root first.
var OKFFiles = []string{"index.md", "sobre.md", "api.md", "faq.md"}

// OKF returns one file of the documentation bundle; ok is false for a name
// outside OKFFiles.
func OKF(name string) (text string, ok bool) {
	for _, f := range OKFFiles {
		if f == name {
			b, err := okfFiles.ReadFile("okf/" + name)
			return string(b), err == nil
		}
	}
	return "", false
}

// BaseURLPlaceholder stands for the public base URL in the texts.
const BaseURLPlaceholder = "{{BASE_URL}}"

// Expand writes baseURL (without a trailing slash) for the placeholder.
func Expand(text, baseURL string) string {
	return strings.ReplaceAll(text, BaseURLPlaceholder, baseURL)
}
