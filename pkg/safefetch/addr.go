package safefetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// classLoopback is the class AllowLoopback lets through; every other
// non-empty class is refused.
const classLoopback = "loopback"

// rangeClass names one refused address range.
type rangeClass struct {
	prefix netip.Prefix
	class  string
}

// blockedV4 lists the IPv4 ranges a public crawler must never dial. Order
// matters: the first match names the class, so specific entries come first.
var blockedV4 = []rangeClass{
	{netip.MustParsePrefix("0.0.0.0/32"), "unspecified"},
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "cgnat"},
	{netip.MustParsePrefix("127.0.0.0/8"), classLoopback},
	{netip.MustParsePrefix("169.254.169.254/32"), "metadata"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "ietf-protocol"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4-relay"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmark"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("255.255.255.255/32"), "broadcast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
}

// nat64WellKnown is the RFC 6052 prefix whose last 32 bits are an IPv4
// address; the embedded address is judged by the IPv4 rules.
var nat64WellKnown = netip.MustParsePrefix("64:ff9b::/96")

// globalUnicastV6 is the only IPv6 space that can hold a public server
// (besides NAT64 above); everything outside it is refused.
var globalUnicastV6 = netip.MustParsePrefix("2000::/3")

// blockedV6 lists refused IPv6 ranges, checked before the global-unicast
// rule so that the class names are informative.
var blockedV6 = []rangeClass{
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), classLoopback},
	{netip.MustParsePrefix("fd00:ec2::254/128"), "metadata"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "nat64-local"},
	{netip.MustParsePrefix("::/96"), "ipv4-compatible"},
	{netip.MustParsePrefix("100::/64"), "discard"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
	// Teredo, benchmarking (2001:2::/48), ORCHID and other IETF
	// protocol assignments: none of them hosts a web site.
	{netip.MustParsePrefix("2001::/23"), "ietf-protocol"},
	// 6to4 embeds an arbitrary IPv4 address; refused outright.
	{netip.MustParsePrefix("2002::/16"), "6to4"},
}

// classify returns "" when a is a public unicast address, and otherwise a
// short name of the range that refuses it ("loopback", "private",
// "metadata", "nat64 private", ...). IPv4-mapped IPv6 addresses are judged
// as the IPv4 address they carry; so are NAT64 (64:ff9b::/96) addresses,
// whose class is prefixed with "nat64 " so that AllowLoopback never lets
// them through.
func classify(a netip.Addr) string {
	if !a.IsValid() {
		return "invalid"
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		for _, r := range blockedV4 {
			if r.prefix.Contains(a) {
				return r.class
			}
		}
		return ""
	}
	if nat64WellKnown.Contains(a) {
		b := a.As16()
		if c := classify(netip.AddrFrom4([4]byte(b[12:16]))); c != "" {
			return "nat64 " + c
		}
		return ""
	}
	for _, r := range blockedV6 {
		if r.prefix.Contains(a) {
			return r.class
		}
	}
	if !globalUnicastV6.Contains(a) {
		return "reserved"
	}
	return ""
}

// permitted reports whether a may be dialled; with allowLoopback, plain
// loopback addresses (127.0.0.0/8, ::1, ::ffff:127.x) are permitted too.
func permitted(a netip.Addr, allowLoopback bool) (ok bool, class string) {
	class = classify(a)
	return class == "" || (allowLoopback && class == classLoopback), class
}

// dialer connects only to permitted addresses. It resolves the host
// itself, refuses the whole dial if any resolved address is not permitted,
// and then connects to the checked IP literals, so no second resolution
// can happen between check and connect (DNS rebinding). The net.Dialer's
// Control hook checks the socket address again just before connect(2).
type dialer struct {
	allowLoopback bool
	// override maps hostKey(name) to the address dialled in place of
	// resolving name (Options.DialOverride).
	override map[string]netip.AddrPort
	net      net.Dialer
	// lookup resolves a host name; net.DefaultResolver unless a test
	// stands in for DNS.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// onConnect, when set (tests), is called just before each connect.
	onConnect func(address string)
}

// newDialer builds a dialer with the given connect timeout.
func newDialer(connectTimeout time.Duration, allowLoopback bool) *dialer {
	d := &dialer{allowLoopback: allowLoopback, lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}}
	d.net = net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second, Control: d.control}
	return d
}

// control is the last check, on the exact address the socket connects to.
func (d *dialer) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return blocked(address, "unparsable")
	}
	if ok, class := permitted(ap.Addr(), d.allowLoopback); !ok {
		return blocked(address, class)
	}
	if d.onConnect != nil {
		d.onConnect(address)
	}
	return nil
}

// DialContext resolves host, checks every address, and dials the checked
// addresses in turn until one connects.
func (d *dialer) DialContext(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if to, ok := d.override[hostKey(host)]; ok {
		addrs, port = []netip.Addr{to.Addr()}, strconv.Itoa(int(to.Port()))
	} else if a, perr := netip.ParseAddr(host); perr == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = d.lookup(ctx, host)
		if err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
		}
	}
	for _, a := range addrs {
		if ok, class := permitted(a, d.allowLoopback); !ok {
			return nil, blocked(fmt.Sprintf("%s (%s)", host, a), class)
		}
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := d.net.DialContext(ctx, network, net.JoinHostPort(a.WithZone("").String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// hostKey is the form of a host name the dial override is keyed by:
// lowercase, without a trailing dot.
func hostKey(name string) string {
	return strings.TrimSuffix(strings.ToLower(name), ".")
}

// blocked builds the blocked_address error for address in class.
func blocked(address, class string) error {
	return &Error{
		Reason:    ReasonBlockedAddress,
		Permanent: true,
		Err:       fmt.Errorf("address %s is %s", address, class),
	}
}
