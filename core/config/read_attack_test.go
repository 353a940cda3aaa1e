package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// readFixture is a PINCER_HOME, a HOME and a workspace; the returned function
// reads them as pincer does and returns every fatal problem of the sources and
// their permission, hook and sandbox tables.
func readFixture(t *testing.T) (home, userHome, ws string, read func() (*Sources, []error)) {
	t.Helper()
	home, userHome, ws = t.TempDir(), t.TempDir(), t.TempDir()
	env := map[string]string{"PINCER_HOME": home, "HOME": userHome}
	read = func() (*Sources, []error) {
		src := Read(PathsFrom(func(k string) string { return env[k] }), ws)
		_, perrs := src.Permissions()
		_, herrs := src.Hooks()
		_, serrs := src.Sandbox()
		all := append(append(append(src.Errors(), perrs...), herrs...), serrs...)
		return src, Fatal(all)
	}
	return home, userHome, ws, read
}

// fileLine is the FILE:LINE a fatal message must start with.
var fileLine = regexp.MustCompile(`^(\S+?):(\d+)(:\d+)?: `)

// TestReadFailsClosed (issue 11): every broken form of every source is a fatal
// *FileError naming the file and the line, and the file contributes nothing.
func TestReadFailsClosed(t *testing.T) {
	deny := `"Bash(rm:*)"`
	cases := []struct {
		name, where, body string
		line              int // 0: any
	}{
		{"user TOML syntax", "home:config.toml", "[permissions]\ndeny = [" + deny + "]\nverbose = tru\n", 3},
		{"project TOML unclosed table", "ws:.pincer/config.toml", "[permissions]\ndeny = [" + deny + "]\n[sandbox\n", 3},
		{"local TOML duplicate key", "ws:.pincer/settings.local.toml", "[permissions]\ndeny = [" + deny + "]\ndeny = []\n", 3},
		{"TOML table defined twice", "ws:.pincer/config.toml", "[permissions]\ndeny = [" + deny + "]\n[permissions]\nallow = []\n", 3},
		{"TOML deny as a string", "ws:.pincer/config.toml", "[permissions]\n\ndeny = " + deny + "\n", 3},
		{"TOML deny of numbers", "ws:.pincer/config.toml", "[permissions]\ndeny = [\n  " + deny + ",\n  7,\n]\n", 4},
		{"TOML permissions as a string", "ws:.pincer/config.toml", "\npermissions = \"deny all\"\n", 2},
		{"TOML misspelled deny", "ws:.pincer/config.toml", "[permissions]\n\ndney = [" + deny + "]\n", 3},
		{"TOML sandbox of the wrong type", "ws:.pincer/config.toml", "[sandbox]\nnetwork = false\nrequire_landlock = \"yes\"\n", 3},
		{"TOML sandbox roots not a list", "home:config.toml", "[sandbox]\n\nwritable_roots = \"/\"\n", 3},
		{"TOML hooks timeout a string", "home:config.toml", "[[hooks.PreToolUse]]\ncommand = \"guard\"\ntimeout = \"ten\"\n", 3},
		{"TOML hooks not tables", "ws:.pincer/config.toml", "[hooks]\nPreToolUse = \"guard\"\n", 2},
		{"JSON trailing comma", "ws:.claude/settings.json", "{\n  \"permissions\": {\"deny\": [" + deny + "]},\n}\n", 3},
		{"JSON unclosed", "ws:.claude/settings.local.json", "{\"permissions\": {\"deny\": [" + deny + "]}\n", 1},
		{"JSON duplicate deny", "ws:.claude/settings.json", "{\"permissions\": {\n\"deny\": [" + deny + "],\n\"deny\": []}}\n", 3},
		{"JSON duplicate hooks", "home:.claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"guard\"}]}]},\n \"hooks\": {}}\n", 2},
		{"JSON deny as a string", "ws:.claude/settings.json", "{\"permissions\":\n {\"deny\": " + deny + "}}\n", 2},
		{"JSON top level an array", "ws:.claude/settings.json", "[" + deny + "]\n", 1},
		{"JSON data after the object", "ws:.claude/settings.local.json", "{}\n{\"permissions\": {}}\n", 2},
		{"JSON hook command a number", "ws:.claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [\n{\"type\": \"command\", \"command\": 7}]}]}}\n", 2},
		{"JSON comment", "ws:.claude/settings.json", "{\n// no comments in JSON\n\"permissions\": {}}\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, userHome, ws, read := readFixture(t)
			root, rel, _ := strings.Cut(c.where, ":")
			dir := map[string]string{"home": home, "ws": ws}[root]
			if strings.HasPrefix(rel, ".claude/") && root == "home" {
				dir = userHome
			}
			path := filepath.Join(dir, rel)
			write(t, path, c.body)
			_, fatal := read()
			if len(fatal) == 0 {
				t.Fatal("no fatal problem: the broken file would be ignored")
			}
			m := fileLine.FindStringSubmatch(fatal[0].Error())
			if m == nil || m[1] != path {
				t.Fatalf("the problem does not start with %s:LINE: %q", path, fatal[0])
			}
			if c.line != 0 && m[2] != strconv.Itoa(c.line) {
				t.Errorf("line %s, want %d: %q", m[2], c.line, fatal[0])
			}
		})
	}
}

// TestReadRefusesWhatAProjectCannotBe: a project file that is a symbolic link
// out of the workspace, one larger than MaxFileSize, and a FIFO (whose read
// would block pincer's start) are fatal and contribute nothing.
func TestReadRefusesWhatAProjectCannotBe(t *testing.T) {
	t.Run("link out of the workspace", func(t *testing.T) {
		_, _, ws, read := readFixture(t)
		outside := filepath.Join(t.TempDir(), "elsewhere.toml")
		write(t, outside, "[permissions]\nallow = [\"Bash\"]\n")
		path := ProjectPath(ws)
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.Symlink(outside, path); err != nil {
			t.Fatal(err)
		}
		src, fatal := read()
		if len(fatal) != 1 || !strings.HasPrefix(fatal[0].Error(), path+": a symbolic link to ") {
			t.Fatalf("fatal = %v", fatal)
		}
		if tables, _ := src.Permissions(); len(tables) != 0 {
			t.Errorf("the linked file's rules were read: %+v", tables)
		}
	})
	t.Run("directory link out of the workspace", func(t *testing.T) {
		_, _, ws, read := readFixture(t)
		outside := t.TempDir()
		write(t, filepath.Join(outside, "settings.json"), `{"permissions": {"allow": ["Bash"]}}`)
		if err := os.Symlink(outside, filepath.Join(ws, ".claude")); err != nil {
			t.Fatal(err)
		}
		if _, fatal := read(); len(fatal) != 1 || !strings.Contains(fatal[0].Error(), "outside the workspace") {
			t.Fatalf("fatal = %v", fatal)
		}
	})
	t.Run("link inside the workspace", func(t *testing.T) {
		_, _, ws, read := readFixture(t)
		write(t, filepath.Join(ws, "shared.toml"), "[permissions]\ndeny = [\"Bash(rm:*)\"]\n")
		_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
		if err := os.Symlink("../shared.toml", ProjectPath(ws)); err != nil {
			t.Fatal(err)
		}
		src, fatal := read()
		tables, _ := src.Permissions()
		if len(fatal) != 0 || len(tables) != 1 || len(tables[0].Deny) != 1 {
			t.Fatalf("fatal %v, tables %+v", fatal, tables)
		}
	})
	t.Run("huge file", func(t *testing.T) {
		_, _, ws, read := readFixture(t)
		path := filepath.Join(ws, ".claude", "settings.json")
		write(t, path, `{"permissions": {"deny": ["Bash(rm:*)"]}, "x": "`+strings.Repeat("a\n", MaxFileSize/2)+`"}`)
		_, fatal := read()
		if len(fatal) != 1 || !fileLine.MatchString(fatal[0].Error()) || !strings.Contains(fatal[0].Error(), "larger than") {
			t.Fatalf("fatal = %v", fatal)
		}
	})
	t.Run("fifo", func(t *testing.T) {
		_, _, ws, read := readFixture(t)
		path := LocalSettingsPath(ws)
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skip(err)
		}
		if _, fatal := read(); len(fatal) != 1 || !strings.Contains(fatal[0].Error(), "not a regular file") {
			t.Fatalf("fatal = %v", fatal)
		}
	})
}

// TestProjectSandboxOnlyTightens: the project's [sandbox] reaches
// sandbox.PolicyFrom marked Project (and with its lines), whatever TOML form it
// takes; the user's is not.
func TestProjectSandboxOnlyTightens(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[sandbox]\nnetwork = false\n")
	write(t, ProjectPath(ws), "# loosen\nsandbox = { enabled = false,\n  network = true }\n")
	src, fatal := read()
	layers, _ := src.Sandbox()
	if len(fatal) != 0 || len(layers) != 2 || layers[0].Project || !layers[1].Project {
		t.Fatalf("fatal %v, layers %+v", fatal, layers)
	}
	if l := layers[1]; l.Enabled == nil || *l.Enabled || l.Network == nil || !*l.Network || l.Lines["enabled"] != 2 || l.Lines["network"] != 3 {
		t.Errorf("project layer %+v", l)
	}
}
