package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"pincer/core/config"
	"pincer/core/smallfile"
)

// Scope is where a plugin is enabled: for the user (every project) or for one
// project (overriding the user's choice there).
type Scope string

// Scopes.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// ParseScope reads a --scope value ("" is ScopeUser).
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "", ScopeUser:
		return ScopeUser, nil
	case ScopeProject:
		return ScopeProject, nil
	}
	return "", fmt.Errorf("--scope %q: want user or project", s)
}

// maxStateFile is the most bytes the state file may hold.
const maxStateFile = 4 << 20

// State is DATA/plugins.json: what is installed from where, and where each
// plugin is enabled. It lives in pincer's data directory, outside every
// workspace and hidden from sandboxed commands: neither a repository's files
// nor the model can enable a plugin.
type State struct {
	Version   int                 `json:"version"`
	Installed map[string]Source   `json:"installed"`
	User      map[string]bool     `json:"user"`     // by plugin name
	Projects  map[string]Settings `json:"projects"` // by the project's absolute real path
}

// Settings are one project's enabled and disabled plugins, by name.
type Settings map[string]bool

// Source is where an installed plugin came from.
type Source struct {
	From        string    `json:"from"` // the path (absolute) or git URL installed
	Git         bool      `json:"git,omitempty"`
	InstalledAt time.Time `json:"installed_at"`
}

// StatePath is DATA/plugins.json.
func StatePath(paths config.Paths) (string, error) {
	if paths.DataErr != nil {
		return "", paths.DataErr
	}
	return filepath.Join(paths.Data, "plugins.json"), nil
}

// Dir is DATA/plugins, where installed plugins live (one directory each, by
// name).
func Dir(paths config.Paths) (string, error) {
	if paths.DataErr != nil {
		return "", paths.DataErr
	}
	return filepath.Join(paths.Data, "plugins"), nil
}

// ReadState reads the state file (none yet: an empty State). A file that does
// not parse is a *config.FileError.
func ReadState(paths config.Paths) (State, error) {
	p, err := StatePath(paths)
	if err != nil {
		return emptyState(), err
	}
	data, err := smallfile.Read(p, maxStateFile) // read at start: a FIFO there must not hang it
	if errors.Is(err, fs.ErrNotExist) {
		return emptyState(), nil
	}
	if err != nil {
		return emptyState(), err
	}
	return parseState(p, data)
}

func emptyState() State {
	return State{Version: 1, Installed: map[string]Source{}, User: map[string]bool{}, Projects: map[string]Settings{}}
}

func parseState(path string, data []byte) (State, error) {
	s := emptyState()
	if len(data) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return emptyState(), config.JSONError(path, data, err)
	}
	if s.Installed == nil {
		s.Installed = map[string]Source{}
	}
	if s.User == nil {
		s.User = map[string]bool{}
	}
	if s.Projects == nil {
		s.Projects = map[string]Settings{}
	}
	return s, nil
}

// editState changes the state file under its lock (config.Edit: re-read
// inside the lock, written atomically, 0600). A file that does not parse is
// not overwritten.
func editState(paths config.Paths, change func(*State) error) error {
	p, err := StatePath(paths)
	if err != nil {
		return err
	}
	return config.Edit(p, 0o600, func(old []byte) ([]byte, error) {
		s, err := parseState(p, old)
		if err != nil {
			return nil, err
		}
		if err := change(&s); err != nil {
			return nil, err
		}
		s.Version = 1
		data, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	})
}

// ProjectKey is workspace's key in State.Projects: its absolute path, symbolic
// links resolved.
func ProjectKey(workspace string) string {
	if abs, err := filepath.Abs(workspace); err == nil {
		workspace = abs
	}
	if real, err := filepath.EvalSymlinks(workspace); err == nil {
		workspace = real
	}
	return workspace
}

// EnabledIn decides whether plugin name is enabled in workspace ("": only the
// user's choice counts) and by which scope: the project's choice when it made
// one, else the user's; a plugin nobody enabled is off.
func (s State) EnabledIn(name, workspace string) (on bool, by Scope) {
	if workspace != "" {
		if v, ok := s.Projects[ProjectKey(workspace)][name]; ok {
			return v, ScopeProject
		}
	}
	if v, ok := s.User[name]; ok {
		return v, ScopeUser
	}
	return false, ""
}

// SetEnabled records name as enabled (on) or disabled for scope (a project
// scope: workspace). The plugin must be installed.
func SetEnabled(paths config.Paths, name string, scope Scope, workspace string, on bool) error {
	if err := ValidName(name); err != nil {
		return err
	}
	dir, err := Dir(paths)
	if err != nil {
		return err
	}
	if _, err := installedDir(dir, name); err != nil {
		return err
	}
	return editState(paths, func(s *State) error {
		setEnabled(s, name, scope, workspace, on)
		return nil
	})
}

func setEnabled(s *State, name string, scope Scope, workspace string, on bool) {
	if scope == ScopeProject {
		key := ProjectKey(workspace)
		if s.Projects[key] == nil {
			s.Projects[key] = Settings{}
		}
		s.Projects[key][name] = on
		return
	}
	s.User[name] = on
}
