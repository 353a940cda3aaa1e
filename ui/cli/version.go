package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionLine is `pincer version`'s line: "pincer VERSION (commit C, TIME,
// with uncommitted changes; GO OS/ARCH)", the build's version control facts
// as the go command stamps them (debug.ReadBuildInfo's vcs.* settings: a
// build from a git checkout), so a bug report can name the exact build (new
// user r24: "pincer dev" alone).
func versionLine() string {
	var parts []string
	goVersion := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			parts = append(parts, "commit "+rev[:min(12, len(rev))])
		}
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "with uncommitted changes")
		}
	}
	built := goVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
	if len(parts) == 0 {
		return fmt.Sprintf("pincer %s (%s)", Version, built)
	}
	return fmt.Sprintf("pincer %s (%s; %s)", Version, strings.Join(parts, ", "), built)
}
