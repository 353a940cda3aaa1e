package e2e

// Issue 10, class 7, end to end: check-then-use races and hard links in the file
// tools. While a process outside pincer swaps a workspace directory for a symlink
// to a directory outside, none of many Writes into it lands outside; a hard link
// in the workspace to an outside file is not written through (a write to a file
// with more than one link asks, in every mode).

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"pincer/core/provider/openai/openaitest"
)

func TestAttackWriteRaceSymlinkSwap(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	race := filepath.Join(a.repo, "race")
	if err := os.Mkdir(race, 0o755); err != nil {
		t.Fatal(err)
	}
	var forms []attackForm
	for i := 0; i < 300; i++ {
		forms = append(forms, attackForm{Name: fmt.Sprintf("write-%03d", i), Tool: "Write",
			Args: `{"file_path":"race/PROOF_{ID}","content":"x"}`, Marker: "{O}/PROOF_{ID}"})
	}
	// The racer: race is a directory, then (swapped atomically with
	// RENAME_EXCHANGE) a symlink to the outside directory, and so on, so it always
	// exists and is one or the other.
	link := filepath.Join(a.repo, "race.link")
	if err := os.Symlink(a.outside, link); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var swaps atomic.Int32
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, race, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
			runtime.Gosched()
		}
	}()
	r := a.runForms("wr", forms, "--permission-mode", "acceptEdits")
	stop.Store(true)
	wg.Wait()
	if fi, err := os.Lstat(race); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		_ = unix.Renameat2(unix.AT_FDCWD, race, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
	}
	t.Logf("%d swaps during the run", swaps.Load())
	t.Run("nothing-written-outside", func(t *testing.T) {
		if found := proofFiles(a.outside); len(found) > 0 {
			t.Errorf("ESCAPE: %d of %d Writes landed outside the workspace: %v", len(found), len(forms), found[:min(5, len(found))])
		}
	})
	ok := 0
	for _, c := range r.Results {
		if c.Completed && !c.IsError {
			ok++
		}
	}
	t.Logf("%d of %d Writes succeeded (inside)", ok, len(forms))
}

func TestAttackHardLinkOutside(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"acceptEdits", "bypassPermissions"} {
		mode := mode
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			victim := filepath.Join(a.outside, "victim.txt")
			mustWrite(t, victim, "victim original\n", 0o644)
			for _, n := range []string{"hl1.txt", "hl2.txt", "hl3.txt"} {
				if err := os.Link(victim, filepath.Join(a.repo, n)); err != nil {
					t.Skipf("cannot hard-link across these directories: %v", err)
				}
			}
			pre := []openaitest.Call{{ID: "hlr1", Name: "Read", Args: `{"file_path":"hl2.txt"}`}}
			forms := []attackForm{
				{Name: "Write-over-link", Tool: "Write", Args: `{"file_path":"hl1.txt","content":"PROOF overwritten\n"}`},
				{Name: "Edit-through-link", Tool: "Edit", Args: `{"file_path":"hl2.txt","old_string":"original","new_string":"PROOF"}`},
				{Name: "Write-new-then-link", Tool: "Write", Args: `{"file_path":"hl3.txt","content":"PROOF\n"}`},
			}
			for i := range forms {
				forms[i].Marker = "{O}/PROOF_none_{ID}"
			}
			r := a.runFormsAfter("hl", pre, forms, "--permission-mode", mode)
			expectBlocked(t, r)
			t.Run("victim-unchanged", func(t *testing.T) {
				if b, _ := os.ReadFile(victim); string(b) != "victim original\n" {
					t.Errorf("ESCAPE: the outside file was written through a hard link: %q", b)
				}
			})
		})
	}
}
