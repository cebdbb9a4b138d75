package searchtext

// IsStopWord reports whether word is a stop word of any language of
// Stemmed: one that a bundle analysed in that language does not index, so
// that a phrase looked up across bundles of every language must skip it
// (keeping its place).
func IsStopWord(word string) bool {
	return stopMasks[fold(word)] != 0
}
