package agent

import (
	"os"
	"path/filepath"
)

// sessionSpillDir returns the directory where the session's long tool outputs are
// saved (Config.SpillRoot/<sessionID>), made with mode 0700 and added to the
// workspace so the model can Read or Grep what was saved; "" when SpillRoot is
// unset or the directory cannot be made or added (outputs are then cut instead
// of saved).
func (a *Agent) sessionSpillDir(sessionID string) string {
	if a.cfg.SpillRoot == "" || a.cfg.Workspace == nil || sessionID == "" {
		return ""
	}
	dir := filepath.Join(a.cfg.SpillRoot, sessionID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	if err := a.cfg.Workspace.AddDir(dir); err != nil {
		return ""
	}
	return dir
}
