package checkpoint

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// absentDirs are the directories on the way to rel (workspace-relative,
// slash-separated) that do not exist now, outermost first: those a call
// writing rel would create.
func (r *Recorder) absentDirs(rel string) []string {
	var out []string
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		fi, err := r.rt.Lstat(filepath.FromSlash(d))
		if err == nil && fi.IsDir() {
			break
		}
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// createdDirs are the directories of absent (absentDirs before the call)
// that are directories now, sorted: the ones the call created.
func (r *Recorder) createdDirs(absent map[string]bool) []string {
	var out []string
	for d := range absent {
		if fi, err := r.rt.Lstat(filepath.FromSlash(d)); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// dirsOf are the directories of dirs on the way to rel.
func dirsOf(dirs map[string]bool, rel string) []string {
	var out []string
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if dirs[d] {
			out = append(out, d)
		}
	}
	return out
}

// removeEmptyDirs removes dirs (deepest first) that are empty, none
// reached through a symlink (removeDirIfEmpty): a directory holding
// anything stays, and one that is no longer a directory is left alone.
func (r *Recorder) removeEmptyDirs(dirs []string) error {
	slices.SortFunc(dirs, func(a, b string) int {
		if c := strings.Count(b, "/") - strings.Count(a, "/"); c != 0 {
			return c
		}
		return strings.Compare(b, a)
	})
	for _, d := range slices.Compact(dirs) {
		if err := r.removeDirIfEmpty(d); err != nil {
			return err
		}
	}
	return nil
}

// newDirs are the directories of after that before lacks: those a command
// created (a scan's Before and After). nil before: none known, none created.
func newDirs(before, after map[string]struct{}) map[string]bool {
	if before == nil {
		return nil
	}
	var out map[string]bool
	for d := range after {
		if _, ok := before[d]; !ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[d] = true
		}
	}
	return out
}
