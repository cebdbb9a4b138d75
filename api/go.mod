module github.com/okfindex/okf-index/api

go 1.26.8
