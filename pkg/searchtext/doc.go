// Package searchtext owns how bundle text and search queries are cut into
// the words the search index holds and looks up.
//
// It decides which Postgres text search configuration analyses a bundle
// (Language), which extra words a bundle's text must be indexed with so that
// camelCase names, dotted and slashed tokens and CJK text can be found
// (Expand), and what a query typed by a person or an agent asks for
// (ParseQuery). The store turns these into SQL; this package writes none.
//
// It is pure: no I/O at run time, no database, no network, no state beyond
// the stop word lists embedded from Postgres (directory stopwords). Every
// function reads a bounded prefix of its input, so its cost is bounded
// whatever it is given, and none panics (they are fuzzed).
package searchtext
