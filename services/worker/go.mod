module github.com/okfindex/okf-index/services/worker

go 1.26.8

require github.com/okfindex/okf-index/pkg v0.0.0

replace github.com/okfindex/okf-index/pkg => ../../pkg

require github.com/okfindex/okf-index/db v0.0.0

replace github.com/okfindex/okf-index/db => ../../db
