package caller

import (
	"testing"
)

func TestClientOf(t *testing.T) {
	tests := []struct {
		peer    string
		header  []string
		trusted bool
		want    string
	}{
		{"203.0.113.7:5555", nil, false, "203.0.113.7/32"},
		{"[2001:db8:1:2:3:4:5:6]:443", nil, false, "2001:db8:1:2::/64"},
		{"[::ffff:203.0.113.7]:1", nil, false, "203.0.113.7/32"},
		// Not trusted: a client's own header is ignored.
		{"203.0.113.7:5555", []string{"198.51.100.1"}, false, "203.0.113.7/32"},
		// Trusted: the last entry, the one the proxy appended.
		{"10.0.0.2:5555", []string{"198.51.100.1, 192.0.2.9"}, true, "192.0.2.9/32"},
		{"10.0.0.2:5555", []string{"1.1.1.1", "192.0.2.9"}, true, "192.0.2.9/32"},
		{"10.0.0.2:5555", []string{"2001:db8::1"}, true, "2001:db8::/64"},
		// A header that holds no address falls back to the peer.
		{"10.0.0.2:5555", []string{"unknown"}, true, "10.0.0.2/32"},
		{"10.0.0.2:5555", nil, true, "10.0.0.2/32"},
		{"garbage", nil, false, "invalid Prefix"},
	}
	for _, tc := range tests {
		if got := Of(tc.peer, tc.header, tc.trusted).String(); got != tc.want {
			t.Errorf("Of(%q, %q, %v) = %s, want %s", tc.peer, tc.header, tc.trusted, got, tc.want)
		}
	}
}

// FuzzClientOf: the client address behind a trusted proxy header.
func FuzzClientOf(f *testing.F) {
	f.Add("203.0.113.7:1", "198.51.100.1, 192.0.2.9", true)
	f.Add("[2001:db8::1]:443", "", false)
	f.Add("x", "2001:db8::1%eth0", true)
	f.Fuzz(func(t *testing.T, peer, header string, trusted bool) {
		p := Of(peer, []string{header}, trusted)
		if p.IsValid() && p.Bits() != 32 && p.Bits() != 64 {
			t.Fatalf("Of(%q, %q) = %s: not a /32 or /64", peer, header, p)
		}
	})
}
