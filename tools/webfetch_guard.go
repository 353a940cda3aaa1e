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
// are not the public internet, each with what it is (RFC 6890's names).
var specialPrefixes = func() []namedPrefix {
	var out []namedPrefix
	for _, s := range [][2]string{
		{"0.0.0.0/8", "a \"this network\" address"},
		{"100.64.0.0/10", "a carrier-grade NAT address"},
		{"192.0.0.0/24", "an IETF protocol assignment address"},
		{"192.0.2.0/24", "a documentation address (TEST-NET-1)"},
		{"198.18.0.0/15", "a benchmarking address"},
		{"198.51.100.0/24", "a documentation address (TEST-NET-2)"},
		{"203.0.113.0/24", "a documentation address (TEST-NET-3)"},
		{"240.0.0.0/4", "a reserved address"},
		{"fec0::/10", "a site-local address"},
		{"100::/64", "a discard-only address"},
		{"2001:db8::/32", "a documentation address"},
	} {
		out = append(out, namedPrefix{netip.MustParsePrefix(s[0]), s[1]})
	}
	return out
}()

// namedPrefix is a special range and what it is.
type namedPrefix struct {
	netip.Prefix
	what string
}

// blockedAddr says why a is not a public internet address — loopback,
// private, link-local (169.254.169.254, the cloud metadata endpoint),
// unspecified, multicast or another special range — or "" when it is public.
// IPv4-mapped (::ffff:127.0.0.1), NAT64 (64:ff9b::7f00:1) and 6to4
// (2002:7f00:1::) and IPv4-compatible (::127.0.0.1) addresses are judged by the IPv4 address inside.
func blockedAddr(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() && !a.IsLoopback() && !a.IsUnspecified() { // ::1 and :: are themselves, not IPv4-compatible
		b := a.As16()
		for _, e := range []struct {
			prefix, what string
			at           int
		}{{"64:ff9b::/96", "a NAT64", 12}, {"::/96", "an IPv4-compatible", 12}, {"2002::/16", "a 6to4", 2}} {
			if netip.MustParsePrefix(e.prefix).Contains(a) {
				v4 := netip.AddrFrom4([4]byte{b[e.at], b[e.at+1], b[e.at+2], b[e.at+3]})
				if why := blockedAddr(v4); why != "" {
					return fmt.Sprintf("%s address of %s, %s", e.what, v4, why)
				}
				return ""
			}
		}
	}
	switch {
	case a.IsLoopback() && a.Is6():
		return "the loopback address (::1)"
	case a.IsLoopback():
		return "a loopback address (127.0.0.0/8)"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata endpoints live there)"
	case a.IsUnspecified() && a.Is6():
		return "the unspecified address (::)"
	case a.IsUnspecified():
		return "the unspecified address (0.0.0.0)"
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, p := range specialPrefixes {
		if p.Contains(a) {
			return p.what + " (" + p.String() + ")"
		}
	}
	if a.Is4() && a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return "the broadcast address"
	}
	return ""
}
