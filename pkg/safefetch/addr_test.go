package safefetch

import (
	"net/netip"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		addr  string
		class string // "" means public
	}{
		// Public IPv4 and IPv6.
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.215.14", ""},
		{"2606:4700::1111", ""},
		{"2a00:1450:4001:80b::200e", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""}, // NAT64 of 8.8.8.8

		// IPv4 refusals.
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "this-network"},
		{"10.0.0.1", "private"},
		{"10.255.255.255", "private"},
		{"100.64.0.1", "cgnat"},
		{"100.127.255.254", "cgnat"},
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"169.254.169.254", "metadata"},
		{"169.254.1.1", "link-local"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.0.0.170", "ietf-protocol"},
		{"192.0.2.1", "documentation"},
		{"192.88.99.1", "6to4-relay"},
		{"192.168.1.1", "private"},
		{"198.18.0.1", "benchmark"},
		{"198.19.255.255", "benchmark"},
		{"198.51.100.7", "documentation"},
		{"203.0.113.7", "documentation"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "broadcast"},
		// Neighbours of refused ranges stay public.
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"198.20.0.1", ""},
		{"11.0.0.1", ""},

		// IPv6 refusals.
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"fd00:ec2::254", "metadata"},
		{"fd12:3456::1", "private"},
		{"fc00::1", "private"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"fec0::1", "site-local"},
		{"ff02::1", "multicast"},
		{"2001:db8::1", "documentation"},
		{"3fff::1", "documentation"},
		{"2001::1", "ietf-protocol"},   // Teredo
		{"2001:2::1", "ietf-protocol"}, // benchmarking
		{"2002:c0a8:0101::1", "6to4"},
		{"100::1", "discard"},
		{"::7f00:1", "ipv4-compatible"},
		{"4000::1", "reserved"},

		// IPv4 in IPv6 clothing.
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"::ffff:169.254.169.254", "metadata"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"64:ff9b::7f00:1", "nat64 loopback"},
		{"64:ff9b::a00:1", "nat64 private"},
		{"64:ff9b::a9fe:a9fe", "nat64 metadata"},
		{"64:ff9b:1::a00:1", "nat64-local"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			a := netip.MustParseAddr(tt.addr)
			if got := classify(a); got != tt.class {
				t.Errorf("classify(%s) = %q, want %q", tt.addr, got, tt.class)
			}
		})
	}
}

func TestPermittedAllowLoopback(t *testing.T) {
	tests := []struct {
		addr          string
		allowLoopback bool
		want          bool
	}{
		{"127.0.0.1", false, false},
		{"127.0.0.1", true, true},
		{"::1", true, true},
		{"::ffff:127.0.0.1", true, true},
		{"64:ff9b::7f00:1", true, false}, // NAT64 loopback is not our loopback
		{"10.0.0.1", true, false},
		{"192.168.0.1", true, false},
		{"169.254.169.254", true, false},
		{"0.0.0.0", true, false},
		{"::", true, false},
		{"8.8.8.8", false, true},
	}
	for _, tt := range tests {
		if got, class := permitted(netip.MustParseAddr(tt.addr), tt.allowLoopback); got != tt.want {
			t.Errorf("permitted(%s, %v) = %v (%s), want %v", tt.addr, tt.allowLoopback, got, class, tt.want)
		}
	}
}

func TestDialerControlRefuses(t *testing.T) {
	// The Control hook is the last line: even if an address reached the
	// socket layer unchecked, connect(2) is refused.
	d := newDialer(DefaultConnectTimeout, false)
	for _, addr := range []string{"127.0.0.1:443", "[::1]:443", "10.1.2.3:443", "[fe80::1%lo]:443", "garbage"} {
		if err := d.control("tcp", addr, nil); err == nil {
			t.Errorf("control(%s) = nil, want refusal", addr)
		}
	}
	if err := d.control("tcp", "8.8.8.8:443", nil); err != nil {
		t.Errorf("control(8.8.8.8:443) = %v, want nil", err)
	}
}
