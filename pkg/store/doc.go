// Package store owns all SQL of the service: the schema's migrations (applied
// from package db), bundle writes, search, cards and statistics, over pgx v5.
// Nothing else in the project imports pgx for queries; handlers and workers
// call Store methods. It holds no business rules beyond keeping the stored
// rows and their summaries consistent.
package store
