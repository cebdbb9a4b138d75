module github.com/okfindex/okf-index/db

go 1.26.8
