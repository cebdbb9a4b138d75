package ping

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// FuzzParsePing: POST /api/ping's body.
func FuzzParsePing(f *testing.F) {
	for _, s := range []string{
		`{"host":"docs.example","key":"a1b2c3d4-e5f6","urlList":["https://docs.example/a.md"]}`,
		`{"host":"docs.example","key":"a1b2c3d4-e5f6","urlList":["https://docs.example/a.md"],"keyLocation":"https://docs.example/k.txt"}`,
		`null`, `[]`, `{"host":5}`, `{"urlList":[null]}`, `{"host":"\u212Aelvin.example"}`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sub, err := parsePing(body)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status < 400 || ae.Status >= 500 || ae.Body.Error == "" || ae.Body.Message == "" {
				t.Fatalf("parsePing(%q) = %v, want a 4xx error answer", body, err)
			}
			return
		}
		if sub.host == "" || len(sub.urls) == 0 || len(sub.urls) > maxPingURLs || !strings.HasPrefix(sub.keyLocation, "https://"+sub.host+"/") {
			t.Fatalf("parsePing(%q) accepted %+v", body, sub)
		}
		for _, u := range sub.urls {
			if !strings.HasPrefix(u, "https://"+sub.host+"/") || !utf8.ValidString(u) {
				t.Fatalf("parsePing(%q) accepted URL %q off host %s", body, u, sub.host)
			}
		}
	})
}

func TestClientLimiter(t *testing.T) {
	clk := clocktest.New(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	l := newClientLimiter(6, clk.Now) // one every 10 s, burst 6
	a, b := netip.MustParsePrefix("192.0.2.1/32"), netip.MustParsePrefix("192.0.2.2/32")
	for i := range 6 {
		if ok, _ := l.allow(a); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, wait := l.allow(a)
	if ok || wait <= 0 || wait > 10*time.Second {
		t.Fatalf("7th request: %v, wait %s; want refused with a wait up to 10 s", ok, wait)
	}
	if ok, _ := l.allow(b); !ok {
		t.Fatal("another client was refused")
	}
	clk.Advance(wait)
	if ok, _ := l.allow(a); !ok {
		t.Fatal("refused after the announced wait")
	}
	// Clients whose bucket filled up again are forgotten.
	clk.Advance(2 * time.Minute)
	l.allow(b)
	l.mu.Lock()
	n := len(l.clients)
	l.mu.Unlock()
	if n != 1 {
		t.Errorf("%d clients remembered after they went quiet, want 1 (the one just seen)", n)
	}
}

func TestUntilNextUTCDay(t *testing.T) {
	if got := untilNextUTCDay(time.Date(2026, 11, 26, 23, 59, 0, 0, time.UTC)); got != time.Minute {
		t.Errorf("untilNextUTCDay = %s", got)
	}
}
