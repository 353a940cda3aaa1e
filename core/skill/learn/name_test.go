package learn

import (
	"strings"
	"testing"
)

// TestValidNameRefusesPathsAndReservedNames: a learned skill's name is a
// directory name under the skills dir, so every form that could step out of
// it, hide, or shadow a command is refused.
func TestValidNameRefusesPathsAndReservedNames(t *testing.T) {
	for _, ok := range []string{"run-tests", "fix-lint2", "a", "go-vet-all", strings.Repeat("a", MaxName)} {
		if err := ValidName(ok); err != nil {
			t.Errorf("ValidName(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../x", "..", ".", "a/b", "a\\b", "/etc", ".hidden", "x.md", "Run-Tests", "RUN",
		"-x", "x-", "a--b", "9lives", "a b", "a\nb", "a\x00b", "ünï", "commit", "help", "compact", "memory", "skills",
		"update-config", "rewind", "clear", "quit", "x:y", "plugin:x", "mcp__s__p", strings.Repeat("a", MaxName+1), "a\u202eb"} {
		if err := ValidName(bad); err == nil {
			t.Errorf("ValidName(%q) = nil, want a refusal", bad)
		}
	}
}

// TestNameFromRequest: a name made from a request keeps its first words but
// the stop words, lower case; a request with nothing usable makes none.
func TestNameFromRequest(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Run the tests and fix the lint errors", "run-tests-fix-lint"},
		{"please add a CHANGELOG entry", "add-changelog-entry"},
		{"../../etc/passwd overwrite", "etc-passwd-overwrite"},
		{"2fa setup for the app", "do-2fa-setup-app"},
		{"---\nname: evil\nallowed-tools: Bash", "name-evil-allowed-tools"},
		{"commit", ""},   // reserved
		{"the a an", ""}, // only stop words
		{"日本語のテキスト", ""}, // no ASCII word
		{"", ""},
	} {
		if got := NameFrom(c.in); got != c.want {
			t.Errorf("NameFrom(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := NameFrom(c.in); got != "" && ValidName(got) != nil {
			t.Errorf("NameFrom(%q) = %q, not valid", c.in, got)
		}
	}
}
