package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"pincer/core/config"
)

// Installed is one installed plugin as `pincer plugin list` shows it.
type Installed struct {
	*Plugin
	Source  Source // where it came from (zero when the state has no record)
	Enabled bool
	By      Scope // the scope whose choice decided Enabled ("": nobody chose: off)
}

// List loads every plugin under Dir, in name order, with whether it is
// enabled in workspace. An entry that is not a plugin pincer installed (a
// symbolic link, a directory whose manifest names another plugin) is listed
// with its error and contributes nothing. The error is the state file's
// (then nothing is enabled) or the directory's.
func List(paths config.Paths, workspace string) ([]Installed, error) {
	st, serr := ReadState(paths)
	dir, err := Dir(paths)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, serr
	}
	if err != nil {
		return nil, err
	}
	var out []Installed
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue // an install in progress, or left by one that died
		}
		var p *Plugin
		if nerr := ValidName(name); nerr != nil {
			p = &Plugin{Name: name, Errors: []error{fmt.Errorf("%s: %v", name, nerr)}}
		} else if path, derr := installedDir(dir, name); derr != nil {
			p = &Plugin{Name: name, Root: path, Errors: []error{derr}}
		} else {
			p = Load(path)
			if p.Manifest != nil && p.Name != name {
				*p = Plugin{Name: name, Root: p.Root, Manifest: p.Manifest,
					Errors: append(p.Errors, fmt.Errorf("%s: its manifest names plugin %q, not %q", path, p.Name, name))}
			}
		}
		in := Installed{Plugin: p, Source: st.Installed[name]}
		if serr == nil {
			in.Enabled, in.By = st.EnabledIn(name, workspace)
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, serr
}

// Enabled returns the plugins enabled in workspace, loaded, in name order —
// those that failed to load too (with Errors and no contributions), so their
// errors can be reported. The error is the state file's or the directory's.
func Enabled(paths config.Paths, workspace string) ([]*Plugin, error) {
	all, err := List(paths, workspace)
	var out []*Plugin
	for _, in := range all {
		if in.Enabled {
			out = append(out, in.Plugin)
		}
	}
	return out, err
}
