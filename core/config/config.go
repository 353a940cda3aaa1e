// Package config owns pincer's configuration: every path outside a workspace
// (Paths), every config source (SourcesFor: the user's and the project's
// config.toml, .pincer/settings.local.toml, ~/.claude/settings.json and the
// project's .claude/settings*.json), and the one reader of them (Read: each file
// read once and decoded once, with the position of every key and value, into
// typed tables — Permissions, Hooks, Sandbox, Keys, and the provider layers
// below). The behaviour packages take those tables (permission.RulesFrom,
// hook.DefsFrom, sandbox.PolicyFrom, tui's KeyMap.Apply) and read no files. Every
// problem is one *FileError (FILE:LINE: ...), fatal unless Warning is set; a
// file that does not parse, a project file linked out of the workspace, one
// larger than MaxFileSize or not a regular file contributes nothing and is
// fatal. Every config write goes through Edit: under a flock held across
// processes, re-read, changed, written atomically (0600), so concurrent writers
// lose nothing.
//
// The model providers are a layered configuration merged with koanf. Layers,
// lowest first:
//
//	defaults     the built-in providers (openai, anthropic, deepseek, openrouter, ollama,
//	             lmstudio, gemini, groq, mistral, openai-responses) and catalog models
//	user file    $PINCER_HOME/config.toml, else $XDG_CONFIG_HOME/pincer/config.toml,
//	             else ~/.config/pincer/config.toml
//	project      <workspace>/.pincer/config.toml
//	environment  PINCER_MODEL or PINCER_DEFAULT_MODEL (default_model),
//	             PINCER_PROVIDERS__NAME__FIELD (providers.NAME.FIELD; models comma-separated)
//	flags        Options.Flags, dotted keys
//
// A higher layer's value replaces a lower one's, except model lists, which are
// joined across every layer (built-in, catalog and user-added names together). The
// TOML shape is
//
//	default_model = "deepseek/deepseek-chat"
//
//	[providers.deepseek]
//	kind = "builtin"                    # or "custom" (any OpenAI-compatible endpoint)
//	base_url = "https://api.deepseek.com/v1"
//	model = "deepseek-chat"             # the provider's default model
//	models = ["deepseek-chat", "deepseek-reasoner"]
//	requires_api_key = true
//	api = "chat"                        # chat | anthropic | gemini | responses
//
// Other tables of these files ([permissions], [sandbox], [[hooks.X]], ...) are
// other tables' and ignored by Load, and kept as they are when the user file is
// rewritten.
//
// Invariants: Load never fails — a file that does not parse is one *FileError naming the
// file, line and column, a bad value is one naming the file and key, and the other
// layers still apply. API keys are never read from, nor written to, these files
// (see package secret): a key-like entry is ignored with a warning, and writes
// refuse one. A project file cannot change where a provider's requests (and keys)
// go: its base_url, api and kind are ignored with a warning.
package config

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/knadh/koanf/v2"
)

// Layer names, as Provider.Source and Config.DefaultSource report them (file layers
// report their path).
const (
	SourceDefaults    = "defaults"
	SourceEnvironment = "environment"
	SourceFlags       = "flags"
)

// Provider is one provider's merged settings.
type Provider struct {
	Name           string
	Kind           string // KindBuiltin or KindCustom
	BaseURL        string
	Model          string   // the provider's default model
	Models         []string // built-in, catalog and user-added names, without duplicates
	RequiresAPIKey bool
	API            string   // APIChat, APIAnthropic, APIGemini or APIResponses
	KeyEnv         []string // environment variables holding its key (see KeyEnv)
	Source         string   // the highest layer that set anything of it
}

// Configured reports whether a layer above the defaults mentions the provider.
func (p Provider) Configured() bool { return p.Source != SourceDefaults }

// Missing lists what keeps the provider from being ready: a base URL, a model, a
// model list, and an API key where one is required (hasKey says whether one is
// known). Empty means ready.
func (p Provider) Missing(hasKey bool) []string {
	var out []string
	if strings.TrimSpace(p.BaseURL) == "" {
		out = append(out, "a base URL")
	}
	if strings.TrimSpace(p.Model) == "" {
		out = append(out, "a model")
	}
	if len(p.Models) == 0 {
		out = append(out, "a model list")
	}
	if p.RequiresAPIKey && !hasKey {
		out = append(out, "an API key")
	}
	return out
}

// HasModel reports whether m is in the provider's model list.
func (p Provider) HasModel(m string) bool {
	for _, x := range p.Models {
		if x == m {
			return true
		}
	}
	return false
}

// Config is the merged configuration.
type Config struct {
	DefaultModel  string // "provider/model"; "" when no layer sets one
	DefaultSource string
	Providers     map[string]Provider
	UserPath      string // where writes go ("" when no config directory is known)
	ProjectPath   string // "" without a project
	// Models are the [models."NAME"] tables (Sources.Models; their warnings
	// are reported where the run's configuration report is made, not by Load).
	Models map[string]ModelSettings
}

// Names lists the providers, sorted.
func (c *Config) Names() []string {
	out := make([]string, 0, len(c.Providers))
	for n := range c.Providers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the provider name.
func (c *Config) Lookup(name string) (Provider, bool) {
	p, ok := c.Providers[name]
	return p, ok
}

// Options say where Load looks.
type Options struct {
	// Getenv reads the environment (nil: os.Getenv): PINCER_HOME, XDG_CONFIG_HOME
	// and HOME locate the user file; PINCER_* variables form the environment layer.
	Getenv func(string) string
	// Environ lists candidate variables as "NAME=..." (nil: os.Environ); only the
	// names are used, values come from Getenv.
	Environ func() []string
	// ProjectDir is the workspace whose .pincer/config.toml is the project layer
	// ("": none).
	ProjectDir string
	// Flags is the top layer, keyed by dotted path ("default_model",
	// "providers.ollama.base_url").
	Flags map[string]any
	// Sources are the files already read (Read); nil: Load reads them, from
	// PathsFrom(Getenv) and ProjectDir.
	Sources *Sources
}

// mapProvider hands an already parsed layer to koanf.
type mapProvider map[string]any

// ReadBytes is not used: the map is already parsed.
func (m mapProvider) ReadBytes() ([]byte, error) { return nil, errors.New("mapProvider: no bytes") }

// Read returns the layer.
func (m mapProvider) Read() (map[string]any, error) { return m, nil }

// merged is the decoding target of the merged koanf instance.
type merged struct {
	DefaultModel string                    `koanf:"default_model"`
	Providers    map[string]mergedProvider `koanf:"providers"`
}

// mergedProvider is one provider as decoded from the merged layers.
type mergedProvider struct {
	Kind           string   `koanf:"kind"`
	BaseURL        string   `koanf:"base_url"`
	Model          string   `koanf:"model"`
	Models         []string `koanf:"models"`
	RequiresAPIKey *bool    `koanf:"requires_api_key"`
	API            string   `koanf:"api"`
}

// Load merges the layers. It returns a usable Config even when some layers are
// broken; each problem is one error in warnings (an *Error).
func Load(o Options) (*Config, []error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	l := &loader{k: koanf.New("."), models: map[string][]string{}, sources: map[string]string{}}
	l.apply(SourceDefaults, defaultsLayer(), false)
	for name := range builtins {
		l.models[name] = union(l.models[name], catalogModels(name))
	}
	src := o.Sources
	if src == nil {
		src = Read(PathsFrom(getenv), o.ProjectDir)
	}
	cfg := &Config{UserPath: src.Paths.UserConfig}
	cfg.Models, _ = src.Models()
	if src.Workspace != "" {
		cfg.ProjectPath = ProjectPath(src.Workspace)
	}
	for _, d := range src.Docs {
		if d.Kind == UserConfig || d.Kind == ProjectConfig {
			l.applyDoc(d)
		}
	}
	l.applyEnv(getenv, o.Environ)
	if len(o.Flags) > 0 {
		fl := koanf.New(".")
		for key, v := range o.Flags {
			_ = fl.Set(key, v)
		}
		l.apply(SourceFlags, fl.Raw(), false)
	}
	var m merged
	if err := l.k.UnmarshalWithConf("", &m, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		l.warns = append(l.warns, &Error{Path: "configuration", Err: err}) // not expected: layers are sanitised
	}
	cfg.DefaultModel, cfg.DefaultSource = m.DefaultModel, l.defaultSource
	cfg.Providers = map[string]Provider{}
	for name, e := range m.Providers {
		p := Provider{Name: name, Kind: KindCustom, BaseURL: strings.TrimRight(e.BaseURL, "/"), Model: e.Model,
			API: e.API, KeyEnv: KeyEnv(name), Source: l.sources[name]}
		if IsBuiltin(name) {
			p.Kind = KindBuiltin
		}
		if p.API == "" {
			p.API = APIChat
		}
		if e.RequiresAPIKey != nil {
			p.RequiresAPIKey = *e.RequiresAPIKey
		}
		p.Models = union(l.models[name], nil)
		if dp, dm, ok := ParseModelID(cfg.DefaultModel); ok && dp == name && p.Model == "" {
			// default_model names this provider's model: it is the provider's
			// model too (the README's local-server setup names it only there,
			// and `pincer model status` called it not ready: new user r21).
			p.Model = dm
		}
		if p.Model != "" {
			p.Models = union(p.Models, []string{p.Model})
		}
		cfg.Providers[name] = p
	}
	return cfg, l.warns
}

// loader accumulates the layers.
type loader struct {
	k             *koanf.Koanf
	warns         []error
	models        map[string][]string // joined across layers
	sources       map[string]string
	defaultSource string
}

// apply sanitises one layer and merges it.
func (l *loader) apply(layer string, m map[string]any, project bool) {
	clean, warns := sanitize(layer, m, project)
	l.warns = append(l.warns, warns...)
	if len(clean) == 0 {
		return
	}
	if err := l.k.Load(mapProvider(clean), nil); err != nil {
		l.warns = append(l.warns, &Error{Path: layer, Err: err})
		return
	}
	if _, ok := clean["default_model"]; ok {
		l.defaultSource = layer
	}
	provs, _ := clean["providers"].(map[string]any)
	for name, v := range provs {
		l.sources[name] = layer
		if list, ok := v.(map[string]any)["models"].([]any); ok {
			for _, s := range list {
				l.models[name] = union(l.models[name], []string{s.(string)})
			}
		}
	}
}

// applyDoc applies a config.toml layer; a missing file is no layer, one that
// does not parse is its error (a warning here: the permission and hook checks
// make it fatal).
func (l *loader) applyDoc(d *Document) {
	if !d.Exists || d.Same {
		return
	}
	if d.Err != nil {
		l.warns = append(l.warns, d.Err)
		return
	}
	l.warns = append(l.warns, unknownKeys(d)...)
	n := len(l.warns)
	l.apply(d.Path, d.Tree, d.Project)
	for _, w := range l.warns[n:] { // the value's line, as every other config message has
		if e, ok := w.(*Error); ok && e.Path == d.Path && e.Line == 0 && e.Key != "" {
			e.Line, e.Column = d.Line(e.Key)
		}
	}
}

// UserPath is the user's config file (see the package comment); "" when neither
// PINCER_HOME, XDG_CONFIG_HOME nor HOME is set.
func UserPath(getenv func(string) string) string {
	if d := Dir(getenv); d != "" {
		return filepath.Join(d, "config.toml")
	}
	return ""
}

// Dir is pincer's configuration directory: $PINCER_HOME, else
// $XDG_CONFIG_HOME/pincer, else $HOME/.config/pincer; "" when none is set. The
// encrypted secrets file lives here too.
func Dir(getenv func(string) string) string {
	if h := getenv("PINCER_HOME"); h != "" {
		return h
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "pincer")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "pincer")
	}
	return ""
}

// ProjectPath is the project layer's file in workspace.
func ProjectPath(workspace string) string {
	return filepath.Join(workspace, ".pincer", "config.toml")
}

// ParseModelID splits "provider/model" at the first '/' (OpenRouter's model names
// have their own slash: "openrouter/anthropic/claude-sonnet-4.5").
func ParseModelID(id string) (provider, model string, ok bool) {
	provider, model, ok = strings.Cut(strings.TrimSpace(id), "/")
	return provider, model, ok && provider != "" && model != ""
}
