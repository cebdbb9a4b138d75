package searchtext

import "strings"

// People write a name short or long as it comes: "nlp" for a bundle about
// natural language processing, "large language models" for one whose
// repository is llm-eval-kb. A text written one way is not found by a query
// written the other, and no stemmer joins them. So a query's acronym also
// matches what it stands for, as a phrase (Term.Expansion), and each word of
// a query's run that spells out an acronym also matches the acronym
// (Term.Acronyms): a bundle holding "nlp" then holds each of "natural",
// "language" and "processing", as one holding the three words does.
//
// acronyms are the ones of software and knowledge work that stand for one
// thing; those that stand for several ("cv", "pr", "cd", "os", "ts") are
// left out. A contraction of one word ("k8s") is one too.
var acronyms = map[string]string{
	"adr": "architecture decision record", "ai": "artificial intelligence", "aml": "anti money laundering",
	"api": "application programming interface", "apm": "application performance monitoring",
	"asr": "automatic speech recognition", "bdd": "behavior driven development", "cdn": "content delivery network",
	"cli": "command line interface", "cms": "content management system", "cnn": "convolutional neural network",
	"cqrs": "command query responsibility segregation", "crm": "customer relationship management",
	"csrf": "cross site request forgery", "db": "database", "ddd": "domain driven design",
	"dns": "domain name system", "dsl": "domain specific language", "dx": "developer experience",
	"ehr": "electronic health record", "emr": "electronic medical record", "erp": "enterprise resource planning",
	"etl": "extract transform load", "faq": "frequently asked questions", "gan": "generative adversarial network",
	"gdpr": "general data protection regulation", "gnn": "graph neural network",
	"gtfs": "general transit feed specification", "gui": "graphical user interface",
	"hpc": "high performance computing", "iac": "infrastructure as code", "ide": "integrated development environment",
	"iot": "internet of things", "jwt": "json web token", "k8s": "kubernetes", "kb": "knowledge base",
	"kpi": "key performance indicator", "kyc": "know your customer", "llm": "large language model",
	"lms": "learning management system", "mcp": "model context protocol", "mfa": "multi factor authentication",
	"ml": "machine learning", "mvc": "model view controller", "ner": "named entity recognition",
	"nlp": "natural language processing", "ocr": "optical character recognition",
	"okr": "objectives and key results", "oop": "object oriented programming", "orm": "object relational mapping",
	"pki": "public key infrastructure", "pwa": "progressive web app", "qa": "quality assurance",
	"rag": "retrieval augmented generation", "rbac": "role based access control", "rfc": "request for comments",
	"rl": "reinforcement learning", "rnn": "recurrent neural network", "rtos": "real time operating system",
	"sdk": "software development kit", "seo": "search engine optimization", "siem": "security information and event management",
	"sla": "service level agreement", "slo": "service level objective", "sre": "site reliability engineering",
	"ssg": "static site generation", "sso": "single sign on", "ssr": "server side rendering",
	"stt": "speech to text", "tdd": "test driven development", "tts": "text to speech",
	"ui": "user interface", "ux": "user experience", "vm": "virtual machine", "vpn": "virtual private network",
	"xss": "cross site scripting", "2fa": "two factor authentication",
}

// spelledOut are the acronyms by the words of what they stand for, stop
// words left out and each word singular (singular): "internet thing" for
// "iot".
var spelledOut = func() map[string][]string {
	m := map[string][]string{}
	for short, long := range acronyms {
		var words []string
		for _, w := range strings.Fields(long) {
			if !isStopWord(English, w) {
				words = append(words, singular(w))
			}
		}
		key := strings.Join(words, " ")
		m[key] = append(m[key], short)
	}
	return m
}()

// maxSpelledWords is the most words an acronym stands for, stop words aside.
const maxSpelledWords = 4

// singular is w without a plural's final s ("models", "llms"), for
// comparing a query's words with acronyms and what they stand for.
func singular(w string) string {
	if len(w) > 2 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// withAcronyms sets the Expansion of each single unquoted word of terms that
// is an acronym, and the Acronyms of each word of a run of such words that
// spells one out (consecutive terms, stop words already left out).
func withAcronyms(terms []Term) []Term {
	word := func(i int) (string, bool) {
		t := terms[i]
		if t.Phrase || len(t.Words) != 1 {
			return "", false
		}
		return singular(t.Words[0]), true
	}
	for i := range terms {
		if _, ok := word(i); !ok {
			continue
		}
		// As written first: "gtfs" and "cms" end in an s of their own.
		w := terms[i].Words[0]
		if long, found := acronyms[w]; found {
			terms[i].Expansion = long
		} else if long, found := acronyms[singular(w)]; found {
			terms[i].Expansion = long
		}
		var run []string
		for j := i; j < len(terms) && j-i < maxSpelledWords; j++ {
			w, ok := word(j)
			if !ok {
				break
			}
			run = append(run, w)
			for _, short := range spelledOut[strings.Join(run, " ")] {
				for k := i; k <= j; k++ {
					terms[k].Acronyms = append(terms[k].Acronyms, short)
				}
			}
		}
	}
	return terms
}
