// Package okf parses the root index.md of an OKF (Open Knowledge Format)
// bundle into the fields of a bundle card: name, tagline, description,
// okf_version, type and the list of concepts the root links to.
//
// It is pure: bytes and the root's identity go in, a Card comes out. It does
// no I/O, keeps no state and never panics on any input (it is fuzzed). The
// rules it follows are the ones in DESIGN.md, "Parsing a root index.md".
package okf
