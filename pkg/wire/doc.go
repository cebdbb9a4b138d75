// Package wire holds the JSON shapes of the service's contract
// (bundle-index-service.md, section 2) and its typed states: the card and
// its parts, the page of a search, the statistics, the ping acknowledgement
// and status, the timestamp, and the values of visibility, origin, sort and
// ping state.
//
// It is a leaf: it imports nothing of the project, so the store, the
// indexer, the API and the tools all speak these types without depending on
// one another. It holds types and their encodings only: no I/O, no rules
// about which values a request may carry (the API checks those), no SQL.
// Field names, order and encodings are the contract's; a change here is a
// change of the public interface.
package wire
