// Package api holds the published contract files of the service (the OpenAPI
// document, and later llms.txt, the /okf/*.md documents and the agent card),
// embedded so the API binary serves exactly what is committed here and tests
// validate real responses against it.
package api

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document of the routes that exist.
//
//go:embed openapi.json
var OpenAPI []byte
