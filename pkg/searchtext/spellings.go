package searchtext

import (
	"slices"
	"strings"
)

// British and American English spell many words apart ("colour" and
// "color", "reharmonisation" and "reharmonization", "modelling" and
// "modeling"), and no stemmer joins them: a bundle written in one is not
// found by a query typed in the other. A word of a query therefore also
// matches its other spelling (Term.Spellings), made by the rules below. A
// rule may make a string that is no word ("rize" from "rise"): it is
// looked up and finds nothing, so the rules stay simple and close to the
// spellings' own ones rather than listing every word.

// spellingPairs are whole words spelt apart that no rule below makes.
var spellingPairs = pairsOf(
	"centre", "center", "centres", "centers", "centred", "centered",
	"metre", "meter", "metres", "meters", "kilometre", "kilometer", "kilometres", "kilometers",
	"centimetre", "centimeter", "millimetre", "millimeter",
	"theatre", "theater", "fibre", "fiber", "fibres", "fibers", "litre", "liter", "litres", "liters",
	"calibre", "caliber", "spectre", "specter", "manoeuvre", "maneuver",
	"catalogue", "catalog", "catalogues", "catalogs", "dialogue", "dialog", "dialogues", "dialogs",
	"analogue", "analog", "licence", "license", "licences", "licenses",
	"defence", "defense", "offence", "offense", "grey", "gray", "programme", "program",
	"programmes", "programs", "aluminium", "aluminum", "judgement", "judgment", "ageing", "aging",
	"fulfil", "fulfill", "enrol", "enroll", "enrolment", "enrollment", "skilful", "skillful",
	"jewellery", "jewelry", "mould", "mold", "plough", "plow", "sceptical", "skeptical",
	"paediatric", "pediatric", "paediatrics", "pediatrics", "anaemia", "anemia",
	"haemoglobin", "hemoglobin", "leukaemia", "leukemia", "oestrogen", "estrogen",
	"orthopaedic", "orthopedic", "orthopaedics", "orthopedics", "encyclopaedia", "encyclopedia",
	"haematology", "hematology", "anaesthesia", "anesthesia", "oesophagus", "esophagus",
	"foetus", "fetus", "diarrhoea", "diarrhea", "tyre", "tire", "tyres", "tires",
	"cheque", "check", "cheques", "checks", "cosy", "cozy", "artefact", "artifact", "artefacts", "artifacts",
)

// ourStems are the starts of the words spelt -our- in Britain and -or- in
// America ("colour", "coloured", "colourful"; "color", "colored").
var ourStems = []string{
	"behavi", "col", "fav", "flav", "hon", "hum", "lab", "neighb", "rum", "sav", "vap",
	"harb", "arm", "endeav", "od", "parl", "vig", "tum", "val", "cand", "clam", "rig",
	"splend", "savi",
}

func pairsOf(words ...string) map[string]string {
	m := make(map[string]string, len(words))
	for i := 0; i+1 < len(words); i += 2 {
		m[words[i]], m[words[i+1]] = words[i+1], words[i]
	}
	return m
}

// maxSpellingRunes bounds the words spellings reads: longer ones are no
// English words people type.
const maxSpellingRunes = 32

// spellings returns the other spellings of w, a lowercase word: British for
// American and American for British. nil when w has none or is not a word
// of ASCII letters.
func spellings(w string) []string {
	if len(w) < 4 || len(w) > maxSpellingRunes || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
		return nil
	}
	if other, ok := spellingPairs[w]; ok {
		return []string{other}
	}
	var out []string
	add := func(s string) {
		if s != w && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	// -ise/-ize and -yse/-yze, with their endings: organise, organised,
	// organisation; analyse, analysing.
	for _, pair := range [][2]string{{"is", "iz"}, {"ys", "yz"}} {
		for _, end := range []string{"e", "es", "ed", "ing", "er", "ers", "ation", "ations", "able"} {
			for k, from := range pair {
				to := pair[1-k]
				if stem, ok := strings.CutSuffix(w, from+end); ok && len(stem) >= 3 {
					add(stem + to + end)
				}
			}
		}
	}
	// -our/-or: colour, colours, coloured; color, colors.
	for _, stem := range ourStems {
		if rest, ok := strings.CutPrefix(w, stem+"our"); ok {
			add(stem + "or" + rest)
		} else if rest, ok := strings.CutPrefix(w, stem+"or"); ok {
			add(stem + "our" + rest)
		}
	}
	// A doubled l before an ending in Britain: modelling, labelled,
	// traveller; modeling, labeled, traveler.
	for _, end := range []string{"ing", "ed", "er", "ers"} {
		if stem, ok := strings.CutSuffix(w, "ell"+end); ok && len(stem) >= 2 {
			add(stem + "el" + end)
		} else if stem, ok := strings.CutSuffix(w, "el"+end); ok && len(stem) >= 2 {
			add(stem + "ell" + end)
		}
	}
	return out
}

// withSpellings sets the Spellings of each single unquoted word of terms.
func withSpellings(terms []Term) []Term {
	for i, t := range terms {
		if !t.Phrase && len(t.Words) == 1 {
			terms[i].Spellings = spellings(t.Words[0])
		}
	}
	return terms
}
