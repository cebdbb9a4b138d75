// Package db holds the project's SQL migrations, embedded so that the binaries
// that apply them (okfctl migrate, the test helpers) carry them. The files are
// named NNNN_name.sql and applied in order by pkg/store; each runs once.
package db

import "embed"

// Migrations holds migrations/*.sql.
//
//go:embed migrations/*.sql
var Migrations embed.FS
