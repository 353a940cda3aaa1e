package builtin

import (
	"context"
	"regexp"
	"strings"

	"pincer/core/config"
	"pincer/tools"
)

// MaxConfigBytes caps the text of one config file /update-config shows.
const MaxConfigBytes = 32_000

// ConfigEditTool is the name of the tool an /update-config turn edits pincer's
// config files with (tools.ConfigEdit); only that turn has it.
const ConfigEditTool = tools.ConfigEditName

// configFile is one of pincer's config files as /update-config shows it.
type configFile struct {
	Name    string // "user config", ".claude/settings.json", ...
	Path    string
	Format  string // "toml" or "json"
	Project bool   // comes with the workspace
	Exists  bool
	Text    string // its text, secret-looking values redacted, cut at MaxConfigBytes
	Cut     bool
	Err     string // why it does not parse, FILE:LINE
}

// updateConfigData is what /update-config gathers.
type updateConfigData struct {
	Files   []configFile
	Request string // what the person asks to change
	Tool    string
}

var updateConfigSkill = Skill{
	Name:         "update-config",
	Description:  "Change pincer's configuration as you ask; each edit shows its diff and waits for your approval",
	ArgumentHint: "<what to change>",
	Gathers:      "the paths of pincer's config files (user and project config.toml, settings.local.toml, ~/.claude and .claude settings) and their current text, secret-looking values redacted",
	gather:       gatherUpdateConfig,
}

// gatherUpdateConfig reads every config source (config.Read) of the
// workspace env.Dir under env.Paths.
func gatherUpdateConfig(_ context.Context, env Env) (any, error) {
	d := updateConfigData{Request: env.Args, Tool: ConfigEditTool}
	for _, doc := range config.Read(env.Paths, env.Dir).Docs {
		f := configFile{Name: doc.Name, Path: doc.Path, Format: "toml", Project: doc.Project, Exists: doc.Exists}
		if doc.Format == config.JSON {
			f.Format = "json"
		}
		if doc.Err != nil {
			f.Err = doc.Err.Error()
		}
		text := string(doc.Data)
		if len(text) > MaxConfigBytes {
			text, f.Cut = text[:MaxConfigBytes], true
		}
		f.Text = RedactConfig(text)
		d.Files = append(d.Files, f)
	}
	return d, nil
}

// secretKey matches a TOML key (`api_key = "..."`) or JSON member
// (`"Authorization": "..."`) whose name (its last dotted part) says it holds a credential, with a
// string value; group 1 is everything up to the value's opening quote, group
// 2 the value.
var secretKey = regexp.MustCompile(`(?im)^(\s*"?(?:[A-Za-z0-9_-]+\.)*[A-Za-z0-9_-]*(?:key|token|secret|password|passwd|authorization|credential|cookie)[A-Za-z0-9_-]*"?\s*[:=]\s*")((?:[^"\\\n]|\\.)*)"`)

// RedactConfig replaces the literal values of secret-looking keys in a config
// file's text with "<redacted>", so /update-config never puts a credential in
// the prompt: a key named like key, token, secret, password, authorization,
// credential or cookie, with a string value that is not a ${VAR} reference or
// empty. Other text is returned unchanged.
func RedactConfig(text string) string {
	return secretKey.ReplaceAllStringFunc(text, func(m string) string {
		sub := secretKey.FindStringSubmatch(m)
		if v := sub[2]; v == "" || strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}") {
			return m
		}
		return sub[1] + `<redacted>"`
	})
}
