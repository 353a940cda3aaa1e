package secret

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

const testKey = "sk-test-0123456789abcdef"

// hangingKeyring never answers.
type hangingKeyring struct{ release chan struct{} }

func (h hangingKeyring) Get(string, string) (string, error) { <-h.release; return "", nil }
func (h hangingKeyring) Set(string, string, string) error   { <-h.release; return nil }
func (h hangingKeyring) Delete(string, string) error        { <-h.release; return nil }

// script writes an executable shell script and returns a command line running it.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "helper.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestChainOrder(t *testing.T) {
	keyring.MockInit()
	ctx := t.Context()
	dir := t.TempDir()
	kr, f := NewKeyring(ServiceName(dir)), NewFile(dir)
	if err := f.Set(ctx, "provider:a", "from-file"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set(ctx, "provider:b", "file-b"); err != nil {
		t.Fatal(err)
	}
	if err := kr.Set(ctx, "provider:a", "from-keyring"); err != nil {
		t.Fatal(err)
	}
	cmd := NewCommand(script(t, `[ "$PINCER_SECRET_KEY" = provider:c ] && echo from-command; exit 0`), os.Getenv)
	c := &Chain{Command: cmd, Keyring: kr, File: f}
	cases := []struct{ name, value, source string }{
		{"provider:a", "from-keyring", "OS keyring"},
		{"provider:b", "file-b", "encrypted file"},
		{"provider:c", "from-command", "secret command"},
	}
	for _, tc := range cases {
		v, src, err := c.Get(ctx, tc.name)
		if err != nil || v != tc.value || !strings.Contains(src, tc.source) {
			t.Errorf("Get(%s) = %q from %q, %v; want %q from %s", tc.name, v, src, err, tc.value, tc.source)
		}
	}
	if _, _, err := c.Get(ctx, "provider:none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing secret: %v", err)
	}
	// A value from the command is never copied elsewhere.
	if _, err := kr.Get(ctx, "provider:c"); !errors.Is(err, ErrNotFound) {
		t.Errorf("command value reached the keyring: %v", err)
	}
	if _, err := f.Get(ctx, "provider:c"); !errors.Is(err, ErrNotFound) {
		t.Errorf("command value reached the file: %v", err)
	}
}

func TestSetFallsBackToFileWhenKeyringUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New(`The name org.freedesktop.secrets was not provided by any .service files`))
	defer keyring.MockInit()
	ctx := t.Context()
	dir := t.TempDir()
	c := Open(dir, func(string) string { return "" })
	notice, err := c.Set(ctx, ProviderKey("openai"), testKey)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(notice, "keyring is unavailable") || !strings.Contains(notice, "encrypted file") || strings.Contains(notice, testKey) {
		t.Errorf("notice %q", notice)
	}
	v, src, err := c.Get(ctx, ProviderKey("openai"))
	if err != nil || v != testKey || !strings.Contains(src, "encrypted file") {
		t.Errorf("Get = %q %q %v", v, src, err)
	}
	assertNotInClear(t, dir, testKey)
}

func TestSetPrefersKeyringAndRemovesFileCopy(t *testing.T) {
	keyring.MockInit()
	ctx := t.Context()
	dir := t.TempDir()
	c := Open(dir, func(string) string { return "" })
	if err := c.File.Set(ctx, "provider:x", "old"); err != nil {
		t.Fatal(err)
	}
	notice, err := c.Set(ctx, "provider:x", testKey)
	if err != nil || !strings.Contains(notice, "OS keyring") {
		t.Fatalf("Set: %q %v", notice, err)
	}
	if _, err := c.File.Get(ctx, "provider:x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("stale file copy kept: %v", err)
	}
	if v, _, _ := c.Get(ctx, "provider:x"); v != testKey {
		t.Errorf("Get = %q", v)
	}
	if err := c.Delete(ctx, "provider:x"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Get(ctx, "provider:x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Delete: %v", err)
	}
}

func TestKeyringTimeoutIsUnavailableAndAskedOnce(t *testing.T) {
	h := hangingKeyring{release: make(chan struct{})}
	defer close(h.release)
	kr := &Keyring{Service: "pincer-test", Timeout: 50 * time.Millisecond, api: h}
	if _, err := kr.Get(t.Context(), "x"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("hanging keyring: %v", err)
	}
	dir := t.TempDir()
	c := &Chain{Keyring: kr, File: NewFile(dir)}
	if _, _, err := c.Get(t.Context(), "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get: %v", err)
	}
	if !c.isDown(kr) {
		t.Error("a timed-out keyring is asked again")
	}
	notice, err := c.Set(t.Context(), "x", testKey)
	if err != nil || !strings.Contains(notice, "encrypted file") {
		t.Errorf("Set after timeout: %q %v", notice, err)
	}
}

func TestClassifyKeyring(t *testing.T) {
	cases := []struct {
		err  error
		want error
	}{
		{keyring.ErrNotFound, ErrNotFound},
		{errors.New(`exec: "dbus-launch": executable file not found in $PATH`), ErrUnavailable},
		{errors.New("org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided"), ErrUnavailable},
		{keyring.ErrUnsupportedPlatform, ErrUnavailable},
	}
	for _, c := range cases {
		if got := classifyKeyring(c.err); !errors.Is(got, c.want) {
			t.Errorf("%v -> %v, want %v", c.err, got, c.want)
		}
	}
}

func TestServiceNameDependsOnDirectory(t *testing.T) {
	a, b := ServiceName("/home/u/.config/pincer"), ServiceName("/tmp/profile")
	if a == b || !strings.HasPrefix(a, "pincer-") || len(a) != len("pincer-")+12 {
		t.Errorf("%q %q", a, b)
	}
}

// assertNotInClear fails when any file under dir contains s.
func assertNotInClear(t *testing.T, dir, s string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("%s contains the secret in clear", p)
		}
		return nil
	})
}
