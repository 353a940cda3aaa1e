package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestModelsEditTool(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, c := range []struct {
		name, user, project, model, want string
		warn                             string
	}{
		{"unset", "", "", "openai/gpt-5", "", ""},
		{"apply_patch", "[models.\"openrouter/qwen\"]\nedit_tool = \"apply_patch\"\n", "", "openrouter/qwen", EditToolApplyPatch, ""},
		{"edit by bare id", "[models.\"gpt-5\"]\nedit_tool = \"edit\"\n", "", "openai/gpt-5", EditToolEdit, ""},
		{"project wins", "[models.\"gpt-5\"]\nedit_tool = \"edit\"\n", "[models.\"gpt-5\"]\nedit_tool = \"apply_patch\"\n", "openai/gpt-5", EditToolApplyPatch, ""},
		{"with protocol", "[models.\"m\"]\nprotocol = \"tools\"\nedit_tool = \"apply_patch\"\n", "", "x/m", EditToolApplyPatch, ""},
		{"bad value", "[models.\"m\"]\nedit_tool = \"patch\"\n", "", "x/m", "", `edit_tool: want "apply_patch" or "edit"`},
		{"bad type", "[models.\"m\"]\nedit_tool = true\n", "", "x/m", "", `edit_tool: want`},
	} {
		write(t, filepath.Join(home, "config.toml"), c.user)
		write(t, ProjectPath(ws), c.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatalf("%s: %v", c.name, fatal)
		}
		tabs, errs := src.Models()
		got := ModelSetting(tabs, c.model).EditTool
		if got != c.want || (c.warn == "") != (len(errs) == 0) || c.warn != "" && !strings.Contains(errs[0].Error(), c.warn) {
			t.Errorf("%s: got %q %v; want %q, warning %q", c.name, got, errs, c.want, c.warn)
		}
	}
}
