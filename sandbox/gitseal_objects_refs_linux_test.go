package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestAttackWorktreeAlternatesAndRefs: from a worktree session pincer made no
// command writes the main repository's objects/info (alternates,
// http-alternates: the person's own git would then read objects from a
// directory the model chose), changes its objects (deletes a loose object,
// repacks, prunes, adds a pack or an object) or creates a ref under
// refs/heads/pincer/ — a
// new name, or a loose ref shadowing a branch that lives only in packed-refs
// (after `git gc`) — nor its reflog; directly, through `..`, symlinks planted
// in the worktree, renaming objects/info away, cp, ln -s, python3 and git
// itself. With and without a mount namespace, the fixture outside every
// writable tree and in the temp dir, with loose and with packed refs.
// (The second red team round wrote alternates and refs/heads/pincer/evil.)
func TestAttackWorktreeAlternatesAndRefs(t *testing.T) {
	wd, _ := os.Getwd()
	for _, c := range []struct {
		name      string
		noMountNS bool
		parent    string
		packed    bool
	}{
		{"mountns", false, wd, false}, {"landlock-only", true, wd, false},
		{"tmp/mountns", false, os.TempDir(), false}, {"tmp/landlock-only", true, os.TempDir(), false},
		{"packed/mountns", false, wd, true}, {"packed/tmp/landlock-only", true, os.TempDir(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newWorktreeSandboxIn(t, c.noMountNS, c.parent)
			if c.packed {
				gitFixture(t, s.repo, "pack-refs", "--all")
				if _, err := os.Lstat(filepath.Join(s.common, "refs", "heads", "pincer", "other")); err == nil {
					t.Fatal("pincer/other is still a loose ref after pack-refs --all")
				}
				// The session's own branch moves on after the gc: its loose
				// ref (and directory) are back, pincer/other is packed only.
				gitFixture(t, s.wt, "commit", "-q", "--allow-empty", "-m", "after gc")
				if _, err := os.Lstat(filepath.Join(s.common, "refs", "heads", "pincer", "w")); err != nil {
					t.Fatal(err)
				}
			}
			base := filepath.Dir(s.repo)
			evil := filepath.Join(base, "evil-objects")
			if err := os.MkdirAll(evil, 0o755); err != nil {
				t.Fatal(err)
			}
			relRepo, _ := filepath.Rel(s.wt, s.repo)
			info := filepath.Join(s.common, "objects", "info")
			alt := filepath.Join(info, "alternates")
			relAlt := filepath.Join(relRepo, ".git", "objects", "info", "alternates")
			heads := filepath.Join(s.common, "refs", "heads", "pincer")
			relHeads := filepath.Join(relRepo, ".git", "refs", "heads", "pincer")
			logs := filepath.Join(s.common, "logs", "refs", "heads", "pincer")
			objects := filepath.Join(s.common, "objects")
			objectsBefore := listTree(t, objects)
			loose := ""
			for _, f := range strings.Split(objectsBefore, "\n") {
				if n, _, _ := strings.Cut(f, " "); len(n) == 41 && n[2] == '/' {
					loose = filepath.Join(objects, n)
					break
				}
			}
			if loose == "" {
				t.Fatalf("no loose object to attack:\n%s", objectsBefore)
			}
			refsBefore := gitFixture(t, s.repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")
			created := []string{
				alt, filepath.Join(info, "http-alternates"), filepath.Join(s.common, "objects", "info.old"),
				filepath.Join(heads, "x"), filepath.Join(heads, "evil"), filepath.Join(heads, "x.lock"),
				filepath.Join(logs, "x"), filepath.Join(logs, "evil"),
			}
			if c.packed {
				created = append(created, filepath.Join(heads, "other"))
			}
			attacks := []string{
				// objects/info/alternates, every shell form.
				"echo " + evil + " > " + alt,
				"printf '" + evil + "\\n' >> " + alt,
				"echo " + evil + " > " + relAlt,
				"echo " + evil + " > al.txt; cp al.txt " + alt,
				"ln -s " + filepath.Join(evil, "list") + " " + alt,
				"python3 -c 'open(\"" + alt + "\", \"w\").write(\"" + evil + "\\n\")'",
				"echo " + evil + " > " + filepath.Join(info, "http-alternates"),
				"ln -s " + filepath.Join(s.common, "objects") + " ob; echo " + evil + " > ob/info/alternates",
				"ln -s " + info + " oi; echo " + evil + " > oi/alternates",
				"ln -s " + filepath.Join(relRepo, ".git") + " gd; echo " + evil + " > gd/objects/info/alternates",
				"mv " + info + " " + filepath.Join(s.common, "objects", "info.old") + " && mkdir " + info + " && echo " + evil + " > " + alt,
				"rm -rf " + info + "; mkdir -p " + info + " && echo " + evil + " > " + alt,
				"cd " + filepath.Join(s.common, "objects") + " && echo " + evil + " > info/alternates",
				"git repack -a -q 2>&1; git -c core.alternateRefsCommand='echo " + evil + " >" + alt + "' fetch -q . HEAD 2>&1",
				"git clone -q --shared --no-checkout " + s.repo + " " + filepath.Join(base, "clone") + " 2>&1; cp " + filepath.Join(base, "clone", ".git", "objects", "info", "alternates") + " " + alt,
				// The person's objects: deleted, replaced, repacked, pruned, added to.
				"rm -f " + loose,
				"mv " + loose + " " + loose + ".x",
				"chmod u+w " + loose + "; echo garbage > " + loose,
				"rm -rf " + filepath.Dir(loose),
				"cd " + objects + " && rm -rf ?? pack/* 2>&1",
				"python3 -c 'import os; os.unlink(\"" + loose + "\")'",
				"git repack -a -d -q 2>&1",
				"git prune --expire=now 2>&1; git gc -q --prune=now 2>&1",
				"echo marker | git hash-object -w --stdin 2>&1",
				"git pack-objects -q " + filepath.Join(objects, "pack", "pack") + " < /dev/null 2>&1",
				"echo x > " + filepath.Join(objects, "pack", "pack-0000000000000000000000000000000000000000.idx"),
				// New loose refs under refs/heads/pincer/ (and their reflogs).
				"git update-ref refs/heads/pincer/x HEAD 2>&1",
				"git branch pincer/evil 2>&1",
				"git checkout -q -b pincer/x 2>&1",
				"git rev-parse HEAD > " + filepath.Join(heads, "x"),
				"git rev-parse HEAD > " + filepath.Join(relHeads, "evil"),
				"git rev-parse HEAD > " + filepath.Join(heads, "x.lock") + " && mv " + filepath.Join(heads, "x.lock") + " " + filepath.Join(heads, "evil"),
				"python3 -c 'import subprocess; open(\"" + filepath.Join(heads, "x") + "\", \"w\").write(subprocess.check_output([\"git\",\"rev-parse\",\"HEAD\"]).decode())'",
				"ln -s " + heads + " hd; git rev-parse HEAD > hd/evil",
				"mkdir -p " + logs + " && echo x > " + filepath.Join(logs, "x"),
				// A loose ref shadowing pincer/other (only in packed-refs in the packed case).
				"c=$(git -c user.name=m -c user.email=m@m commit-tree 'HEAD^{tree}' -m shadow) && git update-ref refs/heads/pincer/other $c 2>&1",
				"c=$(git -c user.name=m -c user.email=m@m commit-tree 'HEAD^{tree}' -m shadow) && echo $c > " + filepath.Join(heads, "other"),
				"git branch -f pincer/other HEAD 2>&1",
			}
			for _, a := range attacks {
				res := sh(t, s.e, a)
				if testing.Verbose() {
					t.Log(a, "->", res.Output)
				}
				for _, p := range created {
					if _, err := os.Lstat(p); err == nil {
						t.Errorf("%q created %s", a, p)
						_ = os.RemoveAll(p)
					}
				}
				if got := listTree(t, objects); got != objectsBefore {
					t.Errorf("%q changed the objects:\n%s\nwere:\n%s", a, got, objectsBefore)
				}
				if !isDir(info) {
					t.Errorf("%q removed %s", a, info)
					_ = os.MkdirAll(info, 0o755)
				}
				if got := gitFixture(t, s.repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"); got != refsBefore {
					t.Errorf("%q changed the branches:\n%s\nwere:\n%s", a, got, refsBefore)
					for _, line := range strings.Split(got, "\n") {
						if ref, _, _ := strings.Cut(line, " "); ref != "" && !strings.Contains(refsBefore, ref+" ") {
							gitFixture(t, s.repo, "update-ref", "-d", ref)
						}
					}
				}
				_ = os.WriteFile(filepath.Join(s.gitDir, "HEAD"), []byte("ref: refs/heads/pincer/w\n"), 0o644)
				_ = os.RemoveAll(filepath.Join(base, "clone"))
			}
		})
	}
}

// listTree lists every entry beneath dir, relative, with its size (files),
// one a line, sorted.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.Mode().IsRegular() {
			rel += fmt.Sprintf(" %d", fi.Size())
		}
		lines = append(lines, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
