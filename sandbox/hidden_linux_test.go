package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxHiddenPaths: with HOME and PINCER_HOME pointing at fake trees,
// commands cannot read the credentials, pincer's secrets or the store
// daemon's socket, in many ways; the rest of HOME stays readable.
func TestSandboxHiddenPaths(t *testing.T) {
	home := t.TempDir()
	pincerHome := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PINCER_HOME", pincerHome)
	t.Setenv("XDG_CONFIG_HOME", "")
	files := map[string]string{
		".ssh/id_x":                     "SECRET-ssh",
		".aws/credentials":              "SECRET-aws",
		".gnupg/private-keys-v1.d/k":    "SECRET-gpg",
		".netrc":                        "SECRET-netrc",
		".docker/config.json":           "SECRET-docker",
		".kube/config":                  "SECRET-kube",
		".config/gh/hosts.yml":          "SECRET-gh",
		".git-credentials":              "SECRET-gitcred",
		".config/gcloud/credentials.db": "SECRET-gcloud",
		".local/share/keyrings/login":   "SECRET-keyring",
		".password-store/x.gpg":         "SECRET-pass",
		"notes.txt":                     "visible",
	}
	for name, content := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"secrets.json": "SECRET-store", "secrets.key": "SECRET-key", "data/store/x": "SECRET-data"} {
		p := filepath.Join(pincerHome, name)
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The store daemon's socket, answering with a secret.
	run := filepath.Join(pincerHome, "run")
	_ = os.MkdirAll(run, 0o700)
	ln, err := net.Listen("unix", filepath.Join(run, "store.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Fprintln(c, "SECRET-daemon")
			c.Close()
		}
	}()
	// A link in the workspace to a hidden file.
	e, root := newSandbox(t, DefaultPolicy())
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_x"), filepath.Join(root, "key-link")); err != nil {
		t.Fatal(err)
	}
	attacks := []string{
		"cat ~/.ssh/id_x", "cat $HOME/.ssh/id_x", "cat " + filepath.Join(home, ".ssh/id_x"), "ls -la ~/.ssh",
		"cat key-link", "cd ~/.ssh && cat id_x", "find " + home + " -type f -exec cat {} +",
		"grep -r SECRET " + home, "tar cf - -C " + home + " . | strings",
		"cat ~/.aws/credentials ~/.netrc ~/.docker/config.json ~/.kube/config ~/.git-credentials",
		"cat ~/.config/gh/hosts.yml ~/.config/gcloud/credentials.db ~/.local/share/keyrings/login ~/.password-store/x.gpg ~/.gnupg/private-keys-v1.d/k",
		"cat $PINCER_HOME/secrets.json; cat -v " + pincerHome + "/secrets.key", "ls -R " + pincerHome, "cat " + pincerHome + "/data/store/x",
		"cat /proc/1/root" + home + "/.ssh/id_x", "for p in /proc/[0-9]*; do cat $p/root" + home + "/.ssh/id_x; done",
		"python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"" + filepath.Join(run, "store.sock") + "\"); print(s.recv(100))'",
		"bash -c 'exec 3<>/dev/tcp/127.0.0.1/1' ; nc -U " + filepath.Join(run, "store.sock"),
		"umount ~/.ssh; cat ~/.ssh/id_x", "unshare -Urm sh -c 'umount " + filepath.Join(home, ".ssh") + "; cat " + filepath.Join(home, ".ssh/id_x") + "'",
		"mv ~/.ssh ~/.ssh2; cat ~/.ssh2/id_x", "ln " + filepath.Join(home, ".ssh/id_x") + " hard && cat hard",
	}
	for _, a := range attacks {
		res := sh(t, e, a)
		if strings.Contains(res.Output, "SECRET") {
			t.Errorf("%q read a secret: %q", a, res.Output)
		}
	}
	if res := sh(t, e, "cat ~/notes.txt"); !strings.Contains(res.Output, "visible") {
		t.Errorf("the rest of HOME is not readable: %q", res.Output)
	}
	// Without a mount namespace they are readable (a reported degradation):
	// the attack itself works.
	e.probe = withoutMountNS
	if res := sh(t, e, "cat ~/.ssh/id_x"); !strings.Contains(res.Output, "SECRET-ssh") {
		t.Errorf("the test's attack does not work even without hiding: %q", res.Output)
	}
	if r, _ := e.Report(); !strings.Contains(r.String(), "hidden paths are readable") {
		t.Errorf("not reported:\n%s", r)
	}
	// The files are still there outside the sandbox.
	if b, err := os.ReadFile(filepath.Join(home, ".ssh/id_x")); err != nil || string(b) != "SECRET-ssh" {
		t.Fatalf("the host's file changed: %q %v", b, err)
	}
}

// TestHiddenFor: a hidden dir holding a kept directory (the spill dir) is
// hidden whole with it kept; one inside a writable tree has the directories
// on the way pinned; the workspace that is a hidden dir stays visible; a
// hidden path inside another is dropped unless it lies in a kept directory.
func TestHiddenFor(t *testing.T) {
	d := t.TempDir()
	for _, p := range []string{"home/data/store/x", "home/data/tool-results/r/f", "home/secrets.json", "ssh/k", "home/data/tool-results/r/inner/x"} {
		_ = os.MkdirAll(filepath.Dir(filepath.Join(d, p)), 0o700)
		_ = os.WriteFile(filepath.Join(d, p), nil, 0o600)
	}
	j := func(p string) string { return filepath.Join(d, p) }
	show := func(hs []hiddenPath) string { return fmt.Sprint(hs) }
	for _, c := range []struct {
		name                   string
		hidden, visible, trees []string
		want                   []hiddenPath
	}{
		{"spill dir kept", []string{j("home"), j("missing")}, []string{j("home/data/tool-results/r")}, nil,
			[]hiddenPath{{Path: j("home"), Keep: []string{j("home/data/tool-results/r")}}}},
		{"in a writable tree: pinned", []string{j("home/data")}, nil, []string{d},
			[]hiddenPath{{Path: j("home/data"), Pin: []string{d, j("home")}}}},
		{"visible itself", []string{j("home")}, []string{j("home")}, nil, nil},
		{"inner dropped, outer first", []string{j("home/data"), j("home")}, nil, nil,
			[]hiddenPath{{Path: j("home")}}},
		{"inner in a kept dir stays", []string{j("home/data/tool-results/r/inner"), j("home")}, []string{j("home/data/tool-results/r")}, nil,
			[]hiddenPath{{Path: j("home"), Keep: []string{j("home/data/tool-results/r")}}, {Path: j("home/data/tool-results/r/inner")}}},
		{"nested kept dirs: the outer one", []string{j("home")}, []string{j("home/data/tool-results/r/inner"), j("home/data/tool-results/r")}, nil,
			[]hiddenPath{{Path: j("home"), Keep: []string{j("home/data/tool-results/r")}}}},
	} {
		if got := hiddenFor(c.hidden, c.visible, c.trees); show(got) != show(c.want) {
			t.Errorf("%s: hiddenFor = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSandboxDaemonSockets: the session bus (a stand-in:
// $XDG_RUNTIME_DIR/bus) cannot be reached, network off or on (a daemon that
// starts processes outside the sandbox); outside the sandbox it can.
func TestSandboxDaemonSockets(t *testing.T) {
	if !installed("python3") {
		t.Skip("python3 not installed")
	}
	rt, err := os.MkdirTemp("/run", "pincer-test-") // outside the writable temp dirs
	if err != nil {
		rt = t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	t.Setenv("XDG_RUNTIME_DIR", rt)
	ln, err := net.Listen("unix", filepath.Join(rt, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Fprintln(c, "REACHED")
			c.Close()
		}
	}()
	script := `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("` + filepath.Join(rt, "bus") + `"); print(s.recv(10).decode())'`
	off, _ := newSandbox(t, DefaultPolicy())
	if res := sh(t, off, script); strings.Contains(res.Output, "REACHED") {
		t.Errorf("network off: the daemon socket was reached: %q", res.Output)
	}
	pol := DefaultPolicy()
	pol.Network = true
	on, _ := newSandbox(t, pol)
	if res := sh(t, on, script); strings.Contains(res.Output, "REACHED") {
		t.Errorf("network on: the daemon socket was reached: %q", res.Output)
	}
	res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Timeout: hangGuard})
	if err != nil || !strings.Contains(res.Output, "REACHED") {
		t.Errorf("outside the sandbox the socket was not reached (the test proves nothing): %v %q", err, res.Output)
	}
}
