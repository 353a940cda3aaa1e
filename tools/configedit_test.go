package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

func TestConfigEditWritesOnlyItsFiles(t *testing.T) {
	env, root := newTestEnv(t)
	outside := t.TempDir()
	user := filepath.Join(outside, "config.toml")
	if err := os.WriteFile(user, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(root, ".pincer", "config.toml")
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("TOPSECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(root, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, claude); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(root, ".claude", "settings.local.json")
	if err := os.Link(secret, linked); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(outside, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	viaDir := filepath.Join(root, "sub", ".pincer")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, viaDir); err != nil {
		t.Fatal(err)
	}
	viaFile := filepath.Join(viaDir, "secret")
	ce := ConfigEdit{Files: []string{user, project, claude, linked, fifo, viaFile}}

	if _, err := runTool(t, ce, env, ConfigEditInput{File: user, OldString: "a = 1", NewString: "a = 2"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(user); string(b) != "a = 2\n" {
		t.Fatalf("user config: %q", b)
	}
	if _, err := runTool(t, ce, env, ConfigEditInput{File: project, NewString: "[permissions]\n"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(project); string(b) != "[permissions]\n" {
		t.Fatalf("project config: %q", b)
	}
	for _, c := range []struct {
		in   ConfigEditInput
		want string
	}{
		{ConfigEditInput{File: filepath.Join(root, "main.go"), NewString: "x"}, "not one of pincer's config files"},
		{ConfigEditInput{File: secret, OldString: "TOPSECRET", NewString: "x"}, "not one of pincer's config files"},
		{ConfigEditInput{File: ".pincer/config.toml", NewString: "x"}, "absolute path"},
		{ConfigEditInput{File: claude, OldString: "TOPSECRET", NewString: "x"}, "symlink"},
		{ConfigEditInput{File: linked, OldString: "TOPSECRET", NewString: "x"}, "hard link"},
		{ConfigEditInput{File: viaFile, OldString: "TOPSECRET", NewString: "x"}, "through a symlink"},
		{ConfigEditInput{File: fifo, NewString: "x"}, "not a regular file"},
		{ConfigEditInput{File: user, OldString: "nope", NewString: "x"}, "not found"},
		{ConfigEditInput{File: user, OldString: "", NewString: "x"}, "already has content"},
	} {
		_, err := runTool(t, ce, env, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.in, err, c.want)
		}
		if _, perr := (ConfigEdit{Files: ce.Files}).Preview(env, c.in); perr == nil {
			t.Errorf("%+v: previewed", c.in)
		}
	}
	if b, _ := os.ReadFile(secret); string(b) != "TOPSECRET\n" {
		t.Fatalf("the secret was written through a link: %q", b)
	}
}

func TestConfigEditWritesOnlyTheApprovedChange(t *testing.T) {
	env, _ := newTestEnv(t)
	file := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(file, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ce := ConfigEdit{Files: []string{file}}
	in := ConfigEditInput{File: file, OldString: "a = 1", NewString: "a = 2"}
	env.ToolCallID = "c1"
	diff, err := ce.Preview(env, in)
	if err != nil || !strings.Contains(diff, "-a = 1") || !strings.Contains(diff, "+a = 2") {
		t.Fatalf("preview: %q, %v", diff, err)
	}
	if err := os.WriteFile(file, []byte("a = 1\nb = 3\n"), 0o600); err != nil { // changed while the person looked
		t.Fatal(err)
	}
	env.ApprovedPreview = true
	_, err = ce.Run(context.Background(), env, in)
	if !errors.Is(err, ErrChangedSinceApproval) {
		t.Fatalf("run after a change: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "a = 1\nb = 3\n" {
		t.Fatalf("written anyway: %q", b)
	}
}

// TestConfigEditSchemaNamesInputFields: ConfigEdit is in no registry, so
// TestSchemaNamesInputFields does not see it: the same check here.
func TestConfigEditSchemaNamesInputFields(t *testing.T) {
	tool := Typed[ConfigEditInput](ConfigEdit{})
	typedIn := tool.(interface{ inputType() reflect.Type })
	var schema map[string]any
	if err := json.Unmarshal(tool.Spec().Schema, &schema); err != nil {
		t.Fatal(err)
	}
	for _, problem := range schemaAgrees("", schema, typedIn.inputType()) {
		t.Error(problem)
	}
	if !tool.Spec().AskAlways || tool.Spec().Kind != KindEdit {
		t.Errorf("spec %+v", tool.Spec())
	}
}
