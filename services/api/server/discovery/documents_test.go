package discovery

import (
	"strings"
	"testing"
	"time"
)

// security.txt's Expires is computed from the clock, not written down.
func TestSecurityTxtExpiresFromClock(t *testing.T) {
	s := New(Deps{BaseURL: "https://okf.example", SecurityContact: "mailto:x@y.example"})
	later := time.Date(2031, 3, 1, 15, 4, 5, 0, time.UTC)
	if !strings.Contains(s.securityTxt(later), "Expires: 2031-08-28T00:00:00Z") {
		t.Errorf("security.txt on 2031-03-01:\n%s", s.securityTxt(later))
	}
}
