package app

import "pincer/tools"

// ConfigProblems reads the configuration of the workspace at dir ("": the
// current directory) as a run there would (Setup.readConfig: every file, every
// table and its consumer) and returns its problems: fatal ones stop `pincer
// run` (the workbench denies every tool), warnings do not. Nothing starts.
// For `pincer doctor`, so that it never calls OK a file a run refuses.
func ConfigProblems(dir string) (fatal, warnings []string, err error) {
	ws, err := workspaceAt(dir)
	if err != nil {
		return nil, nil, err
	}
	s := &Setup{Options: Options{Dir: dir, FailClosed: true}, Workspace: ws, Tools: tools.Default()}
	if err := s.readConfig(); err != nil {
		return nil, nil, err
	}
	return s.ConfigErrors, s.Warnings, nil
}
