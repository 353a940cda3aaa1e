package secret

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFileEncryptsWithFreshNonce(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	f := NewFile(dir)
	if _, err := f.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty store: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a read created %v", entries)
	}
	if err := f.Set(ctx, "a", testKey); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(filepath.Join(dir, FileName))
	if err := f.Set(ctx, "a", testKey); err != nil { // same content again
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(dir, FileName))
	var e1, e2 envelope
	if json.Unmarshal(first, &e1) != nil || json.Unmarshal(second, &e2) != nil {
		t.Fatalf("not JSON: %s", first)
	}
	if e1.Nonce == e2.Nonce || e1.Data == e2.Data {
		t.Error("two writes of the same secrets share a nonce or a ciphertext")
	}
	if v, err := f.Get(ctx, "a"); err != nil || v != testKey {
		t.Errorf("Get = %q %v", v, err)
	}
	for _, name := range []string{FileName, KeyFileName} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", name, st.Mode(), err)
		}
	}
	if key, _ := os.ReadFile(filepath.Join(dir, KeyFileName)); len(key) != 32 {
		t.Errorf("key length %d", len(key))
	}
	assertNotInClear(t, dir, testKey)
	if err := f.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Delete: %v", err)
	}
}

func TestFileDetectsTamperingAndLostKey(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	f := NewFile(dir)
	if err := f.Set(ctx, "a", testKey); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	data, _ := os.ReadFile(path)
	var e envelope
	json.Unmarshal(data, &e)
	first := "A" // a different first character, so the ciphertext always changes
	if e.Data[0] == 'A' {
		first = "B"
	}
	e.Data = first + e.Data[1:]
	bad, _ := json.Marshal(e)
	os.WriteFile(path, bad, 0o600)
	if _, err := f.Get(ctx, "a"); err == nil || !strings.Contains(err.Error(), "cannot decrypt") {
		t.Errorf("tampered file: %v", err)
	}
	os.Remove(filepath.Join(dir, KeyFileName))
	if err := f.Set(ctx, "b", "x"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Set with lost key: %v", err)
	}
}

func TestCommandOutputForms(t *testing.T) {
	cases := []struct {
		name, body, ask, want string
		found                 bool
	}{
		{"one value", `echo "  sk-one  "`, "provider:a", "sk-one", true},
		{"pairs", "printf 'provider:a=sk-a\\nprovider:b=sk-b==\\n'", "provider:b", "sk-b==", true},
		{"pair of another", `echo provider:z=sk-z`, "provider:a", "", false},
		{"value with =", `echo 'abc=='`, "provider:a", "abc==", true},
		{"nothing", `true`, "provider:a", "", false},
		{"uses the key name", `echo "v-$PINCER_SECRET_KEY"`, "provider:q", "v-provider:q", true},
	}
	for _, c := range cases {
		cmd := NewCommand(script(t, c.body), os.Getenv)
		v, err := cmd.Get(t.Context(), c.ask)
		if c.found && (err != nil || v != c.want) {
			t.Errorf("%s: %q %v, want %q", c.name, v, err, c.want)
		}
		if !c.found && !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %q %v, want not found", c.name, v, err)
		}
	}
}

func TestCommandMinimalEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "leak")
	cmd := NewCommand(script(t, `env | sort | tr '\n' ' '`), func(k string) string {
		return map[string]string{"PATH": os.Getenv("PATH"), "HOME": "/home/x", "OPENAI_API_KEY": "leak"}[k]
	})
	v, err := cmd.Get(t.Context(), "provider:a")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v, "leak") || !strings.Contains(v, "PINCER_SECRET_KEY=provider:a") || !strings.Contains(v, "HOME=/home/x") {
		t.Errorf("helper environment: %s", v)
	}
	for _, f := range strings.Fields(v) {
		k, _, _ := strings.Cut(f, "=")
		switch k {
		case "PINCER_SECRET_KEY", "PATH", "HOME", "PWD", "SHLVL", "_", "OLDPWD", "PYTHONSAFEPATH":
		default:
			t.Errorf("unexpected variable %s in the helper's environment", k)
		}
	}
}

func TestCommandFailuresAndLimits(t *testing.T) {
	ctx := t.Context()
	fail := NewCommand(script(t, `echo sk-ignored; echo oops >&2; exit 3`), os.Getenv)
	if _, err := fail.Get(ctx, "a"); err == nil || !strings.Contains(err.Error(), "exit status 3") || strings.Contains(err.Error(), "oops") {
		t.Errorf("failing helper: %v", err)
	}
	slow := NewCommand(script(t, `sleep 30; echo late`), os.Getenv)
	slow.Timeout = 200 * time.Millisecond
	start := time.Now()
	if _, err := slow.Get(ctx, "a"); !errors.Is(err, errTimeout) {
		t.Errorf("slow helper: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %s", d)
	}
	big := NewCommand(script(t, `head -c 5000 /dev/zero | tr '\0' x`), os.Getenv)
	big.MaxOutput = 1000
	if _, err := big.Get(ctx, "a"); !errors.Is(err, errOutputCap) {
		t.Errorf("chatty helper: %v", err)
	}
	// In a chain, a timed-out command is skipped from then on and the others answer.
	dir := t.TempDir()
	f := NewFile(dir)
	f.Set(ctx, "a", "from-file")
	c := &Chain{Command: slow, File: f}
	if v, _, err := c.Get(ctx, "a"); v != "from-file" || err != nil {
		t.Errorf("chain past a slow command: %q %v", v, err)
	}
	start = time.Now()
	c.Get(ctx, "a")
	if time.Since(start) > 150*time.Millisecond && !c.isDown(slow) {
		t.Error("the slow command was asked again")
	}
}

func TestCapWriter(t *testing.T) {
	w := &capWriter{max: 4}
	if n, err := w.Write([]byte("abcd")); n != 4 || err != nil {
		t.Fatal(n, err)
	}
	if _, err := w.Write([]byte("e")); !errors.Is(err, errOutputCap) || !w.over || !bytes.Equal(w.buf.Bytes(), []byte("abcd")) {
		t.Errorf("past the cap: %v %v %q", err, w.over, w.buf.Bytes())
	}
}

// TestCommandRunsOutsideTheWorkspace (red team r24d F5): the secret command
// runs in "/", not in pincer's working directory (the workspace, which the
// model writes), with PYTHONSAFEPATH set.
func TestCommandRunsOutsideTheWorkspace(t *testing.T) {
	t.Chdir(t.TempDir())
	cmd := NewCommand(`echo "$(pwd) $PYTHONSAFEPATH"`, os.Getenv)
	v, err := cmd.Get(t.Context(), "provider:a")
	if err != nil || strings.TrimSpace(v) != "/ 1" {
		t.Errorf("the command ran in %q, %v; want \"/ 1\"", v, err)
	}
}
