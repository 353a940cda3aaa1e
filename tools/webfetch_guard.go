package tools

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// The checks of WebFetch's URLs and addresses (the model is the adversary: a
// fetch must not reach the machine's own services, the local network or a
// cloud metadata endpoint unless a person's rule names that exact host).

// fetchURL parses and checks a WebFetch url: an absolute http or https URL
// with a host, no userinfo (user:pass@ is refused, never sent), no
// non-canonical numeric host (2130706433, 0x7f.1, 0177.0.0.1: forms some
// resolvers read as 127.0.0.1). An http URL is upgraded to https unless its
// host is a loopback name or address (as Claude Code). The fragment is dropped.
func fetchURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("url must not be empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("url %q does not parse: %v", raw, err)
	}
	if err := checkFetchURL(u); err != nil {
		return nil, err
	}
	if u.Scheme == "http" && !loopbackHost(u.Hostname()) {
		u.Scheme = "https"
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// checkFetchURL is the check of every URL WebFetch requests, the first and
// each redirect hop: http(s), a host, no userinfo, no ambiguous numeric host.
func checkFetchURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		u.Scheme = strings.ToLower(u.Scheme)
	default:
		return fmt.Errorf("url %q: WebFetch fetches http and https URLs only", u.Redacted())
	}
	if u.User != nil {
		return fmt.Errorf("url %q carries a user name or password (user@host): WebFetch sends no credentials; remove them", u.Redacted())
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("url %q has no host", u.Redacted())
	}
	if ambiguousNumericHost(host) {
		return fmt.Errorf("url %q: the host %q is a non-canonical numeric address; write the address in dotted decimal (or use the name)", u.Redacted(), host)
	}
	return nil
}

// ambiguousNumericHost reports whether host looks like a number (decimal,
// hex, octal, or fewer than four dotted parts) but is not a canonical IP
// address: inet_aton reads 2130706433, 0x7f000001 and 127.1 as 127.0.0.1.
func ambiguousNumericHost(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return false
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "" {
		return false
	}
	for _, part := range strings.Split(h, ".") {
		if part == "" {
			return false
		}
		digits := part
		if p, ok := strings.CutPrefix(part, "0x"); ok {
			digits = p
			if strings.Trim(digits, "0123456789abcdef") != "" {
				return false
			}
			continue
		}
		if strings.Trim(digits, "0123456789") != "" {
			return false
		}
	}
	return true
}

// loopbackHost reports whether host is localhost (or a name under it) or a
// loopback address: http to it is not upgraded to https.
func loopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && a.Unmap().IsLoopback()
}

// specialPrefixes are the IPv4 and IPv6 ranges beyond netip's predicates that
// are not the public internet: "this network", carrier-grade NAT, IETF
// protocol assignments, benchmarking, reserved, broadcast, IPv6 site-local
// and the discard prefix.
var specialPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "fec0::/10", "100::/64", "2001:db8::/32"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// blockedAddr says why a is not a public internet address — loopback,
// private, link-local (169.254.169.254, the cloud metadata endpoint),
// unspecified, multicast or another special range — or "" when it is public.
// IPv4-mapped (::ffff:127.0.0.1), NAT64 (64:ff9b::7f00:1) and 6to4
// (2002:7f00:1::) and IPv4-compatible (::127.0.0.1) addresses are judged by the IPv4 address inside.
func blockedAddr(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		if netip.MustParsePrefix("64:ff9b::/96").Contains(a) || netip.MustParsePrefix("::/96").Contains(a) {
			return blockedAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		}
		if netip.MustParsePrefix("2002::/16").Contains(a) {
			return blockedAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		}
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata endpoints live there)"
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, p := range specialPrefixes {
		if p.Contains(a) {
			return "a reserved address (" + p.String() + ")"
		}
	}
	if a.Is4() && a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return "the broadcast address"
	}
	return ""
}
