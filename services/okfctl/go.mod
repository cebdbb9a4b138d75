module github.com/okfindex/okf-index/services/okfctl

go 1.26.8

require github.com/okfindex/okf-index/pkg v0.0.0

replace github.com/okfindex/okf-index/pkg => ../../pkg

require github.com/okfindex/okf-index/api v0.0.0

replace github.com/okfindex/okf-index/api => ../../api

require github.com/okfindex/okf-index/db v0.0.0 // indirect

require (
	github.com/gomarkdown/markdown v0.0.0-20261107153045-a51d70be185e // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/pgx/v5 v5.12.0 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/riverqueue/river v0.51.2 // indirect
	github.com/riverqueue/river/riverdriver v0.51.2 // indirect
	github.com/riverqueue/river/riverdriver/riverpgxv5 v0.51.2 // indirect
	github.com/riverqueue/river/rivershared v0.51.2 // indirect
	github.com/riverqueue/river/rivertype v0.51.2 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/okfindex/okf-index/db => ../../db
