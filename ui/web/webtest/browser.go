// Package webtest runs the web panel's tests in a real headless Chromium
// through the DevTools protocol (chromedp): finding the browser, skipping
// when there is none (failing instead with PINCER_REQUIRE_BROWSER=1, as
// .ci/run sets it), and writing screenshots as test artifacts. For tests
// only: nothing of pincer's binary imports it.
package webtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// candidates are the browser binaries tried, in order, after $PINCER_CHROMIUM:
// Debian's chromium package first.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the path of a Chromium binary ($PINCER_CHROMIUM, else the
// first of candidates on PATH), or "" when there is none.
func Find() string {
	if p := os.Getenv("PINCER_CHROMIUM"); p != "" {
		return p
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// Browser starts a headless Chromium for t and returns a tab's context,
// cancelled (the browser ended) at t's cleanup. Without a browser it skips
// t, or fails it when PINCER_REQUIRE_BROWSER=1. The whole browser session is
// bounded by limit (a test never hangs on a page).
func Browser(t testing.TB, limit time.Duration) context.Context {
	t.Helper()
	bin := Find()
	if bin == "" {
		if os.Getenv("PINCER_REQUIRE_BROWSER") == "1" {
			t.Fatal("no Chromium found (PINCER_CHROMIUM, chromium, chromium-browser, google-chrome) and PINCER_REQUIRE_BROWSER=1: install Debian's chromium package")
		}
		t.Skip("no Chromium found (install Debian's chromium package, or set PINCER_CHROMIUM): the browser test is skipped")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox, // a container has no user namespaces for Chromium's own sandbox
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	)
	ctx, cancelTime := context.WithTimeout(context.Background(), limit)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		cancelBrowser()
		cancelAlloc()
		cancelTime()
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelTime()
	})
	return bctx
}

// Screenshot writes a PNG of the page to the artifacts directory
// ($PINCER_ARTIFACTS when set, else a temporary directory of t) as name,
// logs its path and returns it.
func Screenshot(ctx context.Context, t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv("PINCER_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// Eval evaluates the JavaScript expression expr in the page (a promise is
// awaited) and returns its value decoded into T; an exception fails t.
func Eval[T any](ctx context.Context, t testing.TB, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.200s: %v", expr, err)
	}
	return v
}

// Navigate opens url in the tab and waits for the page's load.
func Navigate(ctx context.Context, t testing.TB, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
}
