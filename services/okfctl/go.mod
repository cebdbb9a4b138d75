module github.com/okfindex/okf-index/services/okfctl

go 1.26.8

require github.com/okfindex/okf-index/pkg v0.0.0

replace github.com/okfindex/okf-index/pkg => ../../pkg

require github.com/okfindex/okf-index/db v0.0.0

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/pgx/v5 v5.12.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/okfindex/okf-index/db => ../../db
