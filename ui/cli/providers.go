package cli

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

	"pincer/core/config"
	"pincer/core/config/modelflow"
	"pincer/core/provider"
	"pincer/core/provider/anthropic"
	"pincer/core/provider/gemini"
	"pincer/core/provider/openai"
	"pincer/core/provider/responses"
	"pincer/core/secret"
)

// defaultModel is the model named in `pincer run --help` and used by
// --print-system-prompt when nothing else is set. resolveModel does not fall back
// to it: without a configured default it detects one (see firstRunModel).
const defaultModel = "openai/gpt-4.1"

// modelChoice is a resolved --model/--base-url pair.
type modelChoice struct {
	Provider string // "openai"
	Model    string // "gpt-4.1"
	BaseURL  string
	APIKey   string
	API      string // the wire API: "chat", "anthropic", "gemini", "responses"
	// Warnings are the configuration problems met on the way (a bad line of a
	// config file names the file and line); the caller prints them.
	Warnings []string
}

// ID is PROVIDER/MODEL.
func (m modelChoice) ID() string { return m.Provider + "/" + m.Model }

// Test seams: the local-server probe of first-run detection and the secret store.
var (
	probeLocalModel = probeLocal
	openSecrets     = func(getenv func(string) string) secret.SecretStore {
		dir := config.Dir(getenv)
		if dir == "" {
			return nil // no profile: no stored keys
		}
		return secret.Open(dir, getenv)
	}
)

// loadModelConfig loads the configuration layers (see core/config) for the
// current directory, with the environment read through getenv.
func loadModelConfig(getenv func(string) string) (*config.Config, []error) {
	cwd, _ := os.Getwd()
	return config.Load(config.Options{Getenv: getenv, ProjectDir: cwd})
}

// resolveModel turns --model and --base-url into a provider choice.
//
// The model is --model, else PINCER_MODEL, else the configuration's default_model,
// else first-run detection (firstRunModel). The provider's base URL and wire API
// come from the configuration (built-in or user-configured), --base-url overriding
// the URL. The API key is PINCER_API_KEY, else the provider's variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), else the secret store (external
// command, OS keyring, encrypted file); a custom or unknown provider also falls
// back to OPENAI_API_KEY, as any OpenAI-compatible endpoint.
func resolveModel(model, baseURL string, getenv func(string) string) (modelChoice, error) {
	ctx := context.Background()
	cfg, warns := loadModelConfig(getenv)
	mc := modelChoice{API: config.APIChat}
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
	if s := openSecrets(getenv); s != nil {
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

// errNoModel is resolveModel's answer when nothing names or suggests a model.
var errNoModel = errors.New(`no model configured: run "pincer model configure", set ANTHROPIC_API_KEY, OPENAI_API_KEY or DEEPSEEK_API_KEY, or pass --model PROVIDER/MODEL`)

// firstRunModel picks a model when none is configured: the default model of the
// first provider whose key is in the environment (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, DEEPSEEK_API_KEY), else the first model of a local Ollama or LM
// Studio that answers within probeTimeout, else errNoModel.
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
	return "", errNoModel
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

// newProvider builds the provider for a choice, by its wire API.
func newProvider(mc modelChoice, stall time.Duration) provider.Provider {
	switch mc.API {
	case "anthropic":
		return anthropic.New(anthropic.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	case "gemini":
		return gemini.New(gemini.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	case "responses":
		return responses.New(responses.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	}
	return openai.New(openai.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall,
		SendReasoning: mc.Provider == "deepseek", // its thinking-mode tool loops need their reasoning back
		Headers:       profileHeaders(mc.Provider)})
}

// profileHeaders are the extra headers a provider's profile sends: OpenRouter's app
// attribution title, which its documentation asks of clients.
func profileHeaders(provider string) map[string]string {
	if provider == "openrouter" {
		return map[string]string{"X-Title": "pincer"}
	}
	return nil
}

// modelLister is the adapters' GET /models.
type modelLister interface {
	ListModels(ctx context.Context) ([]string, error)
}

// listModels asks a configured provider for its models through its adapter (for
// `pincer model refresh`).
func listModels(ctx context.Context, p config.Provider, key string) ([]string, error) {
	prov := newProvider(modelChoice{Provider: p.Name, BaseURL: p.BaseURL, APIKey: key, API: p.API}, modelflow.RefreshTimeout)
	l, ok := prov.(modelLister)
	if !ok {
		return nil, fmt.Errorf("%s: its %s adapter cannot list models", p.Name, p.API)
	}
	return l.ListModels(ctx)
}
