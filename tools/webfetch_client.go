package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Resolver looks up a host's addresses (net.Resolver's LookupNetIP; a test
// gives its own to map a name to 127.0.0.1).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Fetch limits: the body read (bytes), the request's time, the same-host
// redirects followed.
const (
	FetchMaxBody      = 10 << 20
	FetchTimeout      = 30 * time.Second
	fetchMaxRedirects = 10
)

// fetched is one HTTP answer as WebFetch read it.
type fetched struct {
	URL         string // the URL finally answered (after same-host redirects)
	Status      int
	StatusText  string
	ContentType string
	Body        []byte
	Cut         bool   // the body was longer than FetchMaxBody and is cut there
	RedirectTo  string // set when the server redirected to another host (not followed)
}

// fetcher makes WebFetch's requests: no proxy, no cookies, no credentials,
// every connection to an address checked just before it is dialled (the one
// resolution is the one connected to: no DNS rebinding between check and
// connect), same-host redirects followed (fetchMaxRedirects), a redirect to
// another host returned, not followed.
type fetcher struct {
	resolver Resolver
	// named reports whether a person's allow rule names this exact host, which
	// lets it resolve to a loopback, private or link-local address.
	named func(host string) bool
	// dial connects to a checked address (net.Dialer.DialContext).
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// dialChecked resolves addr's host once, refuses it when any address is not
// public (unless the host is named by a rule), and dials the first address.
func (f *fetcher) dialChecked(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		r := f.resolver
		if r == nil {
			r = net.DefaultResolver
		}
		if addrs, err = r.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, fmt.Errorf("resolving %s: %w", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("resolving %s: no address", host)
		}
	}
	if f.named == nil || !f.named(host) {
		for _, a := range addrs {
			if why := blockedAddr(a); why != "" {
				return nil, &blockedError{host: host, addr: a.Unmap().String(), why: why}
			}
		}
	}
	dial := f.dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: 10 * time.Second}).DialContext
	}
	return dial(ctx, network, net.JoinHostPort(addrs[0].Unmap().String(), port))
}

// blockedError is a refused connection to a non-public address.
type blockedError struct{ host, addr, why string }

func (e *blockedError) Error() string {
	return fmt.Sprintf("%s resolves to %s, %s: WebFetch does not connect there unless an allow rule names this exact host (WebFetch(domain:%s)) in a config file",
		e.host, e.addr, e.why, e.host)
}

// errCrossHost stops the client at a redirect to another host.
var errCrossHost = errors.New("redirect to another host")

// sameHost reports whether a redirect from a to b stays on the same host: the
// same host name and port, or the name with or without "www." (as Claude Code).
func sameHost(a, b *url.URL) bool {
	ha, hb := strings.ToLower(a.Hostname()), strings.ToLower(b.Hostname())
	if a.Port() != b.Port() {
		return false
	}
	return ha == hb || "www."+ha == hb || ha == "www."+hb
}

// get fetches u (checked by fetchURL) with ctx.
func (f *fetcher) get(ctx context.Context, u *url.URL) (fetched, error) {
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would resolve names where we cannot check them
		DialContext:           f.dialChecked,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: FetchTimeout,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	defer tr.CloseIdleConnections()
	var crossHost *url.URL
	client := &http.Client{Transport: tr, Timeout: FetchTimeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) > fetchMaxRedirects {
			return fmt.Errorf("more than %d redirects", fetchMaxRedirects)
		}
		if err := checkFetchURL(req.URL); err != nil {
			return err
		}
		if !sameHost(via[0].URL, req.URL) || (via[0].URL.Scheme == "https" && req.URL.Scheme != "https") {
			crossHost = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fetched{}, err
	}
	req.Header.Set("User-Agent", "pincer-WebFetch/1 (+terminal coding agent)")
	req.Header.Set("Accept", "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		var be *blockedError
		if errors.As(err, &be) {
			return fetched{}, be
		}
		return fetched{}, fmt.Errorf("fetching %s: %w", u.Redacted(), unwrapURLError(err))
	}
	defer resp.Body.Close()
	out := fetched{URL: resp.Request.URL.String(), Status: resp.StatusCode, StatusText: resp.Status, ContentType: resp.Header.Get("Content-Type")}
	if crossHost != nil {
		out.RedirectTo = crossHost.String()
		return out, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, FetchMaxBody+1))
	if err != nil {
		return out, fmt.Errorf("reading %s: %w", u.Redacted(), err)
	}
	if len(body) > FetchMaxBody {
		body, out.Cut = body[:FetchMaxBody], true
	}
	out.Body = body
	return out, nil
}

// unwrapURLError drops the *url.Error wrapper, whose text repeats the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
