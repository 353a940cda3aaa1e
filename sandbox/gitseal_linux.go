package sandbox

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// sealWithMounts makes each directory of sealed (see gitSeals) a read-only
// mount, in the helper's mount namespace: every component between a writable
// tree holding it and the directory is pinned first (so that it cannot be
// renamed away and replaced), every writable tree inside it (the git dir
// parts GitShare shares, a workspace root) is bound onto itself read-write
// (its own mounts with it) so that the read-only mount, made recursively,
// keeps it writable; a missing one is skipped. A symlink on the way fails: the
// command does not run.
func sealWithMounts(sealed []string, trees []treeSpec) error {
	pinned := map[string]bool{}
	bind := func(p string) error {
		if pinned[p] {
			return nil
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("sealing: binding %s: %w", p, err)
		}
		pinned[p] = true
		return nil
	}
	for _, p := range sealed {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			return fmt.Errorf("sealing the main repository %s: not a directory", p)
		}
		for _, t := range trees {
			if t.Path == p || !within(t.Path, p) {
				continue
			}
			chain, missing, ok := componentChain(t.Path, filepath.Dir(p))
			if !ok || missing {
				return fmt.Errorf("sealing the main repository %s: a symlink or a missing directory on the way from %s", p, t.Path)
			}
			for _, c := range chain[1:] {
				if err := bind(c); err != nil {
					return err
				}
			}
		}
		for _, t := range trees {
			if t.Path == p || !within(p, t.Path) {
				continue
			}
			chain, missing, ok := componentChain(p, t.Path)
			if !ok {
				return fmt.Errorf("sealing the main repository %s: a symlink on the way to %s", p, t.Path)
			}
			if missing || len(chain) == 0 || !isDir(chain[len(chain)-1]) {
				continue
			}
			if err := bind(t.Path); err != nil {
				return err
			}
		}
		if err := bindReadOnly(p); err != nil {
			return fmt.Errorf("sealing the main repository: %w", err)
		}
	}
	return nil
}
