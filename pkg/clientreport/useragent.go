package clientreport

import "strings"

// User-Agent families, the only trace of the User-Agent that is kept.
const (
	FamilyBot     = "bot"
	FamilyEdge    = "edge"
	FamilyOpera   = "opera"
	FamilyFirefox = "firefox"
	FamilyChrome  = "chrome"
	FamilySafari  = "safari"
	FamilyOther   = "other"
	// FamilyMixed marks a merged event whose reports came from more than
	// one family.
	FamilyMixed = "mixed"
)

// uaMarkers are tried in order: automation first (HeadlessChrome also says
// Chrome), then the browsers whose User-Agent also names the one they are
// built on (Edge and Opera say Chrome; Chrome says Safari).
var uaMarkers = []struct {
	family  string
	markers []string
}{
	{FamilyBot, []string{"bot", "crawler", "spider", "slurp", "headless", "lighthouse", "phantomjs",
		"puppeteer", "playwright", "selenium", "curl/", "wget/", "python", "go-http-client",
		"okhttp", "java/", "node-fetch", "axios/", "house-smoke"}},
	{FamilyEdge, []string{"edg/", "edge/", "edga/", "edgios/"}},
	{FamilyOpera, []string{"opr/", "opera"}},
	{FamilyFirefox, []string{"firefox/", "fxios/"}},
	{FamilyChrome, []string{"chrome/", "crios/", "chromium/"}},
	{FamilySafari, []string{"safari/"}},
}

// uaFamily reduces a User-Agent to a coarse family. Only the first 512 bytes
// are looked at: every marker appears well before that in real agents.
func uaFamily(userAgent string) string {
	if len(userAgent) > 512 {
		userAgent = userAgent[:512]
	}
	ua := strings.ToLower(userAgent)
	for _, f := range uaMarkers {
		for _, m := range f.markers {
			if strings.Contains(ua, m) {
				return f.family
			}
		}
	}
	return FamilyOther
}
