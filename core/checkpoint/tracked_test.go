package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"

	"pincer/persist"
)

// gitIn runs git in dir.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// paths are the files of a checkpoint.
func paths(fs []persist.CheckpointFile) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

// TestIgnoreDoesNotHideTrackedFiles (red team r18 F6): a command that adds
// `src/` to .gitignore and rewrites the tracked src/main.go is seen changing
// it (its new text stored), and so is a later change of it, as git keeps
// tracking an indexed file; an untracked file beside it stays ignored.
func TestIgnoreDoesNotHideTrackedFiles(t *testing.T) {
	ctx := context.Background()
	r, _, root := newRecorder(t)
	write(t, root, "src/main.go", "package main\n", 0o644)
	write(t, root, ".gitignore", "*.log\n", 0o644)
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", ".")
	gitIn(t, root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init")

	p := r.Before(ctx, nil, true)
	write(t, root, ".gitignore", "*.log\nsrc/\n", 0o644)
	write(t, root, "src/main.go", "package evil\n", 0o644)
	write(t, root, "src/new.go", "package untracked\n", 0o644)
	cp, ok, err := p.After(ctx, "s", "t", "c1", "Bash")
	if err != nil || !ok {
		t.Fatalf("the command's checkpoint: %v %v", ok, err)
	}
	if got := paths(cp.Files); !slices.Equal(got, []string{".gitignore", "src/main.go"}) {
		t.Fatalf("the command changed %v, want .gitignore and src/main.go", got)
	}
	for _, f := range cp.Files {
		if f.Path == "src/main.go" && (f.After.Absent || f.Before.Absent) {
			t.Errorf("src/main.go recorded as created or deleted: %+v", f)
		}
	}

	p = r.Before(ctx, nil, true)
	if err := os.WriteFile(root+"/src/main.go", []byte("package later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cp, ok, err = p.After(ctx, "s", "t", "c2", "Bash")
	if err != nil || !ok || !slices.Equal(paths(cp.Files), []string{"src/main.go"}) {
		t.Fatalf("a later change of the tracked file: %v %v %v", paths(cp.Files), ok, err)
	}
}
