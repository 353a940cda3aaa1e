package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/config/modelflow"
	"pincer/core/provider"
	"pincer/core/provider/registry"
	"pincer/core/secret"
)

// DefaultModel is the model named in `pincer run --help` and used by
// --print-system-prompt when nothing else is set. ResolveModel does not fall back
// to it: without a configured default it detects one (see firstRunModel).
const DefaultModel = "openai/gpt-4.1"

// ModelChoice is a resolved --model/--base-url pair.
type ModelChoice struct {
	Provider string // "openai"
	Model    string // "gpt-4.1"
	BaseURL  string
	APIKey   string
	API      string // the wire API: "chat", "anthropic", "gemini", "responses"
	// ContextWindow is the model's [models."NAME"] context_window in tokens
	// (0: not set; ModelInfo falls back to the catalog).
	ContextWindow int64
	// Warnings are the configuration problems met on the way (a bad line of a
	// config file names the file and line); the caller prints them.
	Warnings []string
}

// ID is PROVIDER/MODEL, or "" when no model was chosen.
func (m ModelChoice) ID() string {
	if m.Provider == "" && m.Model == "" {
		return ""
	}
	return m.Provider + "/" + m.Model
}

// Test seams: the local-server probe of first-run detection and the secret store.
var (
	probeLocalModel = probeLocal
	OpenSecrets     = func(getenv func(string) string) secret.SecretStore {
		dir := config.Dir(getenv)
		if dir == "" {
			return nil // no profile: no stored keys
		}
		return secret.Open(dir, getenv)
	}
)

// LoadModelConfig loads the configuration layers (see core/config) for the
// current directory, with the environment read through getenv.
func LoadModelConfig(getenv func(string) string) (*config.Config, []error) {
	cwd, _ := os.Getwd()
	return config.Load(config.Options{Getenv: getenv, ProjectDir: cwd})
}

// ResolveModel turns --model and --base-url into a provider choice.
//
// The model is --model, else PINCER_MODEL, else the configuration's default_model,
// else first-run detection (firstRunModel). The provider's base URL and wire API
// come from the configuration (built-in or user-configured), --base-url overriding
// the URL. The API key is PINCER_API_KEY, else the provider's variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), else the secret store (external
// command, OS keyring, encrypted file); a custom or unknown provider also falls
// back to OPENAI_API_KEY, as any OpenAI-compatible endpoint.
func ResolveModel(model, baseURL string, getenv func(string) string) (ModelChoice, error) {
	return resolveModel(model, baseURL, getenv, nil)
}

// resolveModel is ResolveModel over configuration files already read (src; nil:
// read them now from the current directory).
func resolveModel(model, baseURL string, getenv func(string) string, src *config.Sources) (ModelChoice, error) {
	ctx := context.Background()
	var cfg *config.Config
	var warns []error
	if src != nil {
		cfg, warns = config.Load(config.Options{Getenv: getenv, Sources: src})
	} else {
		cfg, warns = LoadModelConfig(getenv)
	}
	mc := ModelChoice{API: config.APIChat}
	for _, w := range warns {
		mc.Warnings = append(mc.Warnings, w.Error())
	}
	if model == "" {
		model = getenv("PINCER_MODEL")
	}
	if model == "" {
		model = cfg.DefaultModel
	}
	if model == "" {
		var err error
		if model, err = firstRunModel(cfg, getenv); err != nil {
			return mc, err
		}
	}
	prov, name, ok := config.ParseModelID(model)
	if !ok {
		return mc, usagef("--model must be PROVIDER/MODEL (for example openai/gpt-4.1), got %q", model)
	}
	if baseURL != "" {
		if err := config.ValidateBaseURL(baseURL); err != nil {
			return mc, usagef("--base-url must be an http(s) URL such as http://localhost:8000/v1, got %q", baseURL)
		}
	}
	mc.Provider, mc.Model, mc.BaseURL = prov, name, baseURL
	mc.ContextWindow = config.ModelSetting(cfg.Models, mc.ID()).ContextWindow
	pc, known := cfg.Lookup(prov)
	if known {
		mc.API = pc.API
	}
	if mc.BaseURL == "" {
		if !known || pc.BaseURL == "" {
			return mc, usagef("unknown provider %q: pass --base-url URL for an OpenAI-compatible endpoint, or add it with `pincer model configure %s` (known: %s)",
				prov, prov, strings.Join(cfg.Names(), ", "))
		}
		mc.BaseURL = pc.BaseURL
	}
	env := &modelflow.Env{Config: cfg, Getenv: getenv}
	if s := OpenSecrets(getenv); s != nil {
		env.Secrets = s
	}
	mc.APIKey, _ = env.Key(ctx, prov)
	if mc.APIKey == "" && (!known || pc.Kind == config.KindCustom) {
		mc.APIKey = getenv("OPENAI_API_KEY")
	}
	if mc.APIKey == "" && known && pc.RequiresAPIKey && baseURL == "" {
		return mc, fmt.Errorf("no API key for %s: set %s (or PINCER_API_KEY), or store one with `pincer model set %s api-key`",
			prov, strings.Join(pc.KeyEnv, " or "), prov)
	}
	return mc, nil
}

// ErrNoModel is ResolveModel's answer when nothing names or suggests a model
// (the workbench says NoModelInWorkbench instead: it has /model).
// NoModelInWorkbench is the workbench's text for ErrNoModel.
const NoModelInWorkbench = `no model configured: type /model to configure one, or set ANTHROPIC_API_KEY, OPENAI_API_KEY or DEEPSEEK_API_KEY and restart, or pass --model PROVIDER/MODEL`

var ErrNoModel = errors.New(`no model configured: run "pincer model configure", set ANTHROPIC_API_KEY, OPENAI_API_KEY or DEEPSEEK_API_KEY, or pass --model PROVIDER/MODEL`)

// firstRunModel picks a model when none is configured: the default model of the
// first provider whose key is in the environment (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, DEEPSEEK_API_KEY), else the first model of a local Ollama or LM
// Studio that answers within probeTimeout, else ErrNoModel.
func firstRunModel(cfg *config.Config, getenv func(string) string) (string, error) {
	for _, p := range []string{"anthropic", "openai", "deepseek"} {
		pc, ok := cfg.Lookup(p)
		if !ok || pc.Model == "" {
			continue
		}
		for _, k := range pc.KeyEnv {
			if getenv(k) != "" {
				return p + "/" + pc.Model, nil
			}
		}
	}
	if id := probeLocalModel(cfg); id != "" {
		return id, nil
	}
	return "", ErrNoModel
}

// probeTimeout bounds the whole local-server probe.
const probeTimeout = 300 * time.Millisecond

// probeLocal asks Ollama and LM Studio (their configured base URLs; by default
// 127.0.0.1:11434 and 127.0.0.1:1234) for their models at once, and returns
// "ollama/<first model>" or "lmstudio/<first model>", Ollama first; "" when
// neither answers with a model within probeTimeout.
func probeLocal(cfg *config.Config) string {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	names := []string{"ollama", "lmstudio"}
	found := make([]chan string, len(names))
	for i, n := range names {
		found[i] = make(chan string, 1)
		pc, ok := cfg.Lookup(n)
		if !ok || pc.BaseURL == "" {
			found[i] <- ""
			continue
		}
		go func() { found[i] <- firstModel(ctx, pc.BaseURL) }()
	}
	for i, n := range names {
		if m := <-found[i]; m != "" {
			return n + "/" + m
		}
	}
	return ""
}

// firstModel returns the first id of GET base/models, or "".
func firstModel(ctx context.Context, base string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return ""
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&list) != nil {
		return ""
	}
	for _, m := range list.Data {
		if m.ID != "" {
			return m.ID
		}
	}
	return ""
}

// newProvider builds the provider for a choice through the one provider registry
// (core/provider/registry), by its wire API; stall is the stream's stall timeout.
func newProvider(mc ModelChoice, stall time.Duration) (provider.Provider, error) {
	return registry.New(mc.API, provider.HTTPConfig{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
}

// ListModels asks a configured provider for its models through its adapter (for
// `pincer model refresh`), each exchange bounded by modelflow.RefreshTimeout of
// silence.
func ListModels(ctx context.Context, p config.Provider, key string) ([]string, error) {
	return registry.ListModels(ctx, p.API, provider.HTTPConfig{Name: p.Name, BaseURL: p.BaseURL, APIKey: key, StallTimeout: modelflow.RefreshTimeout})
}

// chooseModel resolves the model of a run, the one rule for `pincer run` and the
// workbench: the flag, else the model stored with the session being continued
// (--continue: the newest session of cwd; --session ID), else PINCER_MODEL,
// default_model in config.toml, or one detected from the environment
// (ResolveModel). A stored model that no longer resolves falls back to the rest
// of that order, with an error naming it when nothing else resolves. The
// configuration's warnings are in the result's Warnings.
func chooseModel(flagModel, baseURL, session string, cont bool, cwd string, src *config.Sources) (ModelChoice, error) {
	model := flagModel
	if cont || session != "" {
		stored, err := storedModel(session, cont, cwd)
		if err != nil {
			return ModelChoice{}, err
		}
		if model == "" {
			model = stored
		}
	}
	mc, err := resolveModel(model, baseURL, os.Getenv, src)
	if err != nil && model != flagModel { // the stored model no longer resolves: fall back
		stored, storedErr := model, err
		if mc, err = resolveModel(flagModel, baseURL, os.Getenv, src); err != nil {
			err = fmt.Errorf("the session ran on %s, which does not resolve now (%v); pass --base-url for it, or --model", stored, storedErr)
		} else {
			mc.Warnings = append(mc.Warnings, fmt.Sprintf("the session ran on %s, which does not resolve now (%v): it continues on %s (pass --model or --base-url to choose)", stored, storedErr, mc.ID()))
		}
	}
	return mc, err
}

// SessionError is the error of a --continue or --session that names no session
// (none in this directory, or no such ID): nothing is run or opened.
type SessionError struct{ Err error }

func (e *SessionError) Error() string { return e.Err.Error() }
func (e *SessionError) Unwrap() error { return e.Err }

// storedModel is the model of the session being continued, "" when the store
// cannot be read now (Start reports that). A session that does not exist is a
// *SessionError.
func storedModel(session string, cont bool, cwd string) (string, error) {
	st, err := OpenExistingStore()
	if errors.Is(err, ErrNoStore) {
		if cont {
			return "", &SessionError{fmt.Errorf("no session to continue in %s: run without --continue to start one", cwd)}
		}
		return "", &SessionError{fmt.Errorf("no session %q (see \"pincer sessions\")", session)}
	}
	if err != nil {
		return "", nil
	}
	defer st.Close()
	s, err := FindSession(context.Background(), st, session, cont, cwd)
	if err != nil {
		return "", &SessionError{err}
	}
	return s.Model, nil
}

// SessionModelResolver resolves a model ID (PROVIDER/MODEL) as a run's model is
// resolved (ResolveModel with this process's environment and configuration),
// into a provider with the stall timeout of opts, for the workbench's Backend
// when it resumes a session that ran on another model.
func SessionModelResolver(opts Options) func(id string) (provider.Provider, agent.ModelChoice, error) {
	return func(id string) (provider.Provider, agent.ModelChoice, error) {
		mc, err := ResolveModel(id, "", os.Getenv)
		if err != nil {
			return nil, agent.ModelChoice{}, err
		}
		p, err := newProvider(mc, opts.StallTimeout)
		if err != nil {
			return nil, agent.ModelChoice{}, err
		}
		c := agent.ModelChoice{ID: mc.Model, Name: mc.ID()}
		c.ContextWindow, c.Cost, _ = ModelInfo(mc)
		return p, c, nil
	}
}
