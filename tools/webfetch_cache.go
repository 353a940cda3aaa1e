package tools

import (
	"sync"
	"time"
)

// FetchCacheTTL is how long WebFetch keeps a fetched page (Claude Code's 15 minutes).
const FetchCacheTTL = 15 * time.Minute

// fetchCacheMax bounds the pages kept; the oldest goes first.
const fetchCacheMax = 64

// FetchCache keeps WebFetch's pages for FetchCacheTTL, per process, keyed by
// the URL requested (after the https upgrade): a second fetch of a URL within
// the TTL reads the page kept, with the prompt asked afresh. Safe for
// concurrent use; the zero value is ready.
type FetchCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
	now   func() time.Time // nil: time.Now (a test moves the clock)
}

// cachedPage is a page kept, with when it was fetched.
type cachedPage struct {
	page fetchedPage
	at   time.Time
}

// fetchedPage is what a fetch produced: the text (Markdown or as served) and
// what the result says about it.
type fetchedPage struct {
	URL, ContentType, Text string
	Status                 int
	Bytes                  int  // body bytes read
	Cut                    bool // body cut at FetchMaxBody
	Converted              bool // HTML turned into Markdown
	RedirectTo             string
	StatusText             string
}

func (c *FetchCache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// get returns the page kept for key, if it is younger than FetchCacheTTL.
func (c *FetchCache) get(key string) (fetchedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok {
		return fetchedPage{}, false
	}
	if c.clock().Sub(e.at) >= FetchCacheTTL {
		delete(c.pages, key)
		return fetchedPage{}, false
	}
	return e.page, true
}

// put keeps p under key, dropping expired pages and, past fetchCacheMax, the oldest.
func (c *FetchCache) put(key string, p fetchedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock()
	if c.pages == nil {
		c.pages = map[string]cachedPage{}
	}
	for k, e := range c.pages {
		if now.Sub(e.at) >= FetchCacheTTL {
			delete(c.pages, k)
		}
	}
	for len(c.pages) >= fetchCacheMax {
		oldest, first := "", true
		var at time.Time
		for k, e := range c.pages {
			if first || e.at.Before(at) {
				oldest, at, first = k, e.at, false
			}
		}
		delete(c.pages, oldest)
	}
	c.pages[key] = cachedPage{page: p, at: now}
}
