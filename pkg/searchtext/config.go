package searchtext

// Text search configurations created by migration 0018. Simple is unaccent
// and the simple dictionary: exact words, nothing removed. Each of the others
// is unaccent, then that language's Snowball stemmer and stop words.
const (
	Simple     = "okf_simple"
	English    = "okf_english"
	Portuguese = "okf_portuguese"
	Spanish    = "okf_spanish"
	French     = "okf_french"
	German     = "okf_german"
	Italian    = "okf_italian"
	Dutch      = "okf_dutch"
	Russian    = "okf_russian"
	Turkish    = "okf_turkish" // migration 0033
)

// Stemmed lists every stemming configuration, English first: English is the
// default, so it comes first wherever order breaks a tie.
var Stemmed = []string{English, Portuguese, Spanish, French, German, Italian, Dutch, Russian, Turkish}

// stopFiles names the embedded stop word list of each stemming configuration.
var stopFiles = map[string]string{
	English:    "english.stop",
	Portuguese: "portuguese.stop",
	Spanish:    "spanish.stop",
	French:     "french.stop",
	German:     "german.stop",
	Italian:    "italian.stop",
	Dutch:      "dutch.stop",
	Russian:    "russian.stop",
	Turkish:    "turkish.stop",
}
