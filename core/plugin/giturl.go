package plugin

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// scpLike is git's scp-like address, user@host:path (no "://").
var scpLike = regexp.MustCompile(`^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:[^:]`)

// gitSchemes are the URL schemes a plugin may be cloned over. git's other
// transports are refused: "ext::COMMAND" runs COMMAND, "fd::" reads file
// descriptors, and any "helper::address" form picks a remote helper program.
var gitSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git": true, "file": true}

// LooksLikeGit reports whether source names a git repository rather than a
// local directory: a URL with a scheme, git's scp-like user@host:path, or a
// "helper::" transport (which CheckGitURL then refuses).
func LooksLikeGit(source string) bool {
	return strings.Contains(source, "://") || scpLike.MatchString(source) || strings.Contains(source, "::")
}

// CheckGitURL returns nil when git may clone source as a plugin: an https,
// http, ssh, git or file URL, or user@host:path. Refused: anything starting
// with '-' (git would read it as an option: --upload-pack=COMMAND), a
// "transport::address" form (ext::, fd::, file::), another scheme, and
// control characters or spaces.
func CheckGitURL(source string) error {
	switch {
	case source == "":
		return fmt.Errorf("an empty git URL")
	case strings.HasPrefix(source, "-"):
		return fmt.Errorf("git URL %q starts with '-': git would read it as an option", source)
	case strings.Contains(source, "::"):
		return fmt.Errorf("git URL %q uses a transport helper (\"::\"), which may run a program: use https, ssh, git or file", source)
	case strings.IndexFunc(source, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0:
		return fmt.Errorf("git URL %q holds a space or control character", source)
	}
	if scpLike.MatchString(source) && !strings.Contains(source, "://") {
		return nil
	}
	u, err := url.Parse(source)
	if err != nil {
		return fmt.Errorf("git URL %q: %v", source, err)
	}
	if !gitSchemes[strings.ToLower(u.Scheme)] {
		return fmt.Errorf("git URL %q: scheme %q is not one of https, http, ssh, git, file", source, u.Scheme)
	}
	if strings.HasPrefix(u.Host, "-") || strings.HasPrefix(u.User.Username(), "-") {
		return fmt.Errorf("git URL %q: a host or user starting with '-' would reach ssh as an option", source)
	}
	return nil
}
