// Package modelflow is the /model command family as functions over a Prompter, so
// that the command line (`pincer model ...`) and the workbench (/model) run the same
// flows with their own way of asking:
//
//	Configure   choose provider → base URL → model names → API key → default model;
//	            everything is collected first and saved once at the end
//	Switch      another model of the active provider, for one session (the caller
//	            stores it); never changes the provider
//	SetDefault  the global default model (the user config file)
//	AddModel    a model name joined to a provider's list
//	SetAPIKey   a provider's key into the secret store
//	Status, List, Refresh   see report.go
//
// Invariants: a flow that returns an error has saved nothing, except that
// Configure stores the API key before the config file (a stored key without
// configuration is harmless; configuration without its key would be half-saved).
// No flow prints a key: status shows "[configured]" and the key's source only.
// Cancelling — a Prompter returning ErrCancelled (end of input, Ctrl+C), an empty
// answer where one is required, or "no" to an overwrite — returns ErrCancelled.
package modelflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"pincer/core/config"
	"pincer/core/secret"
)

// ErrCancelled is returned when the user cancels a flow; nothing was saved.
var ErrCancelled = errors.New("cancelled: nothing was saved")

// ErrBadArgument is matched (errors.Is) by the errors of a flow given a bad
// argument: not PROVIDER/MODEL, a provider that does not exist, a name no
// provider can have. The command line reports them as usage errors (exit 2).
var ErrBadArgument = errors.New("bad argument")

// argError is an error of ErrBadArgument: its message alone is shown.
type argError struct{ msg string }

func (e argError) Error() string        { return e.msg }
func (e argError) Is(target error) bool { return target == ErrBadArgument }

// badArgf is an ErrBadArgument error with a formatted message.
func badArgf(format string, a ...any) error { return argError{fmt.Sprintf(format, a...)} }

// Prompter asks the user. Implementations return ErrCancelled (or an error
// wrapping it) at end of input or on an interrupt.
type Prompter interface {
	// Ask asks a question with a default answer (def, possibly "") and returns the
	// answer, def when the user just confirms.
	Ask(question, def string) (string, error)
	// AskSecret asks without echoing the answer.
	AskSecret(question string) (string, error)
	// Confirm asks a yes/no question; the default is no.
	Confirm(question string) (bool, error)
	// Choose returns the index of one of options; def is the index an
	// empty answer (Enter) takes, shown as the default, or -1 for none (an
	// empty answer then cancels).
	Choose(question string, options []string, def int) (int, error)
}

// Env is what the flows work on.
type Env struct {
	Config  *config.Config     // the merged configuration (read)
	Secrets secret.SecretStore // API keys (nil: none can be read or stored)
	Getenv  func(string) string
	Out     io.Writer // one line per outcome
	// List, when set, reads the models a provider's server lists: Configure
	// offers them when the provider has none yet.
	List Lister
	// Problems are the configuration's fatal problems (config.Fatal of what
	// Load returned: a file that did not parse, with its FILE:LINE). With
	// any, a provider not found is reported as probably in the part that did
	// not load rather than as unknown.
	Problems []error
}

// unknownProvider is the error for a provider the configuration lacks: a
// usage error when the configuration loaded whole, else one naming the
// problem that may have hidden it (new user r22: a broken line made
// `pincer model default local/x` say only "unknown provider").
func (e *Env) unknownProvider(prov string) error {
	if len(e.Problems) > 0 {
		return fmt.Errorf("provider %q not found, and the configuration did not load whole: %w; fix that first (nothing was changed)", prov, e.Problems[0])
	}
	return badArgf("unknown provider %q: add it with `pincer model configure %s`", prov, prov)
}

// printf writes one line to e.Out.
func (e *Env) printf(format string, a ...any) {
	if e.Out != nil {
		fmt.Fprintf(e.Out, format+"\n", a...)
	}
}

// Key returns a provider's API key and where it came from: PINCER_API_KEY, the
// provider's variables (config.KeyEnv), then the secret store. "" when none.
func (e *Env) Key(ctx context.Context, name string) (value, source string) {
	getenv := e.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	for _, k := range append([]string{"PINCER_API_KEY"}, config.KeyEnv(name)...) {
		if v := getenv(k); v != "" {
			return v, "environment: " + k
		}
	}
	if e.Secrets != nil {
		if v, src, err := e.Secrets.Get(ctx, secret.ProviderKey(name)); err == nil && v != "" {
			return v, src
		}
	}
	return "", ""
}

// newProviderChoice is the last option of Configure's provider menu.
const newProviderChoice = "another OpenAI-compatible endpoint (custom)…"

// Configure runs the provider wizard for name ("" asks which). It saves the key in
// the secret store, then the provider and default_model in the user file — once,
// at the end — and returns the new default model ID.
func Configure(ctx context.Context, e *Env, p Prompter, name string) (string, error) {
	cfg := e.Config
	if name == "" {
		names := cfg.Names()
		i, err := p.Choose("Provider", append(names, newProviderChoice), -1)
		if err != nil {
			return "", cancelled(err)
		}
		if i == len(names) {
			if name, err = required(p.Ask("Name of the new provider (letters, digits, '-', '_')", "")); err != nil {
				return "", err
			}
		} else {
			name = names[i]
		}
	}
	if !config.ValidProviderName(name) {
		return "", badArgf("%q cannot name a provider: use letters, digits, '-' and '_'", name)
	}
	user, err := config.OpenUserFile(cfg.UserPath)
	if err != nil {
		return "", err
	}
	if user.HasProvider(name) {
		ok, err := p.Confirm(fmt.Sprintf("%s is already configured in %s. Overwrite its settings?", name, cfg.UserPath))
		if err != nil || !ok {
			return "", cancelled(err)
		}
	}
	cur, known := cfg.Lookup(name)
	if !known {
		cur = config.Provider{Name: name, Kind: config.KindCustom, API: config.APIChat}
	}
	s := config.ProviderSettings{Kind: cur.Kind, API: cur.API, RequiresAPIKey: cur.RequiresAPIKey}
	for {
		if s.BaseURL, err = required(p.Ask("Base URL", cur.BaseURL)); err != nil {
			return "", err
		}
		if err = config.ValidateBaseURL(s.BaseURL); err == nil {
			break
		}
		e.printf("%v", err)
	}
	s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	if s.Kind == config.KindCustom {
		// Enter keeps the current wire API (chat for a new provider): a new
		// user r22 pressed Enter here and the wizard was cancelled.
		i, err := p.Choose("Wire API", config.APIs, max(0, slices.Index(config.APIs, s.API)))
		if err != nil {
			return "", cancelled(err)
		}
		s.API = config.APIs[i]
		if s.RequiresAPIKey, err = p.Confirm("Does it need an API key?"); err != nil {
			return "", cancelled(err)
		}
	}
	list, err := required(p.Ask("Model names, comma-separated", e.servedModels(ctx, name, s, cur.Models)))
	if err != nil {
		return "", err
	}
	for _, m := range strings.Split(list, ",") {
		if m = strings.TrimSpace(m); m != "" && !contains(s.Models, m) {
			s.Models = append(s.Models, m)
		}
	}
	if len(s.Models) == 0 {
		return "", ErrCancelled
	}
	key, err := askKey(ctx, e, p, name, s.RequiresAPIKey)
	if err != nil {
		return "", err
	}
	options := make([]string, len(s.Models))
	def := 0
	for i, m := range s.Models {
		options[i] = m
		if m == cur.Model {
			options[i] += " · current"
			def = i
		}
	}
	i, err := p.Choose("Default model", options, def)
	if err != nil {
		return "", cancelled(err)
	}
	s.Model = s.Models[i]
	id := name + "/" + s.Model

	// Everything is known: save, key first.
	if key != "" {
		if e.Secrets == nil {
			return "", errors.New("no secret store to keep the API key in")
		}
		notice, err := e.Secrets.Set(ctx, secret.ProviderKey(name), key)
		if err != nil {
			return "", err
		}
		e.printf("API key for %s %s.", name, notice)
	}
	err = config.Update(cfg.UserPath, func(u *config.UserFile) error {
		if err := u.SetProvider(name, s); err != nil {
			return err
		}
		return u.SetDefaultModel(id)
	})
	if err != nil {
		return "", err
	}
	e.printf("Saved %s in %s; default model: %s", name, cfg.UserPath, id)
	return id, nil
}

// servedModels is the default answer to Configure's model question: the
// names the provider has already and, for a custom provider or one with none
// yet, the ones its server lists after them (new user r22: reconfiguring a
// local server never asked it; e.List,
// GET /models with the key already known; not asked when one is needed and
// none is known yet), so that Enter takes them — a new user r21 pressed
// Enter at an empty question and lost the whole setup; a list that cannot be
// read is said and leaves the question empty.
func (e *Env) servedModels(ctx context.Context, name string, s config.ProviderSettings, have []string) string {
	if e.List == nil || len(have) > 0 && s.Kind != config.KindCustom {
		return strings.Join(have, ", ")
	}
	key, _ := e.Key(ctx, name)
	if s.RequiresAPIKey && key == "" {
		return ""
	}
	c, cancel := context.WithTimeout(ctx, RefreshTimeout)
	defer cancel()
	served, err := e.List(c, config.Provider{Name: name, Kind: s.Kind, BaseURL: s.BaseURL, API: s.API,
		RequiresAPIKey: s.RequiresAPIKey, KeyEnv: config.KeyEnv(name)}, key)
	typeThem := "type the names"
	if len(have) > 0 {
		typeThem = "the names it has are kept"
	}
	switch {
	case err != nil:
		msg := err.Error()
		if key != "" {
			msg = strings.ReplaceAll(msg, key, "[redacted]")
		}
		e.printf("the server's model list could not be read (%s): %s", msg, typeThem)
	case len(served) == 0:
		e.printf("the server lists no models: %s", typeThem)
	}
	return strings.Join(union(have, served), ", ")
}

// askKey asks for the provider's key when one is required. An empty answer keeps
// a key already known (environment or store) and cancels otherwise.
func askKey(ctx context.Context, e *Env, p Prompter, name string, requires bool) (string, error) {
	if !requires {
		return "", nil
	}
	_, src := e.Key(ctx, name)
	q := fmt.Sprintf("API key for %s (input hidden)", name)
	if src != "" {
		q = fmt.Sprintf("API key for %s (input hidden; empty keeps the one from %s)", name, src)
	}
	key, err := p.AskSecret(q)
	if err != nil {
		return "", cancelled(err)
	}
	key = strings.TrimSpace(key)
	if key == "" && src == "" {
		return "", ErrCancelled
	}
	return key, nil
}

// Switch picks another model for one session and returns its ID; the caller
// stores it with the session (and, for another provider, gives the session a
// provider for it: app.Backend's adoptModel). arg "" asks among the models of
// the active provider — the provider of current, the session's model ("" means
// the default); otherwise arg is a model name of the active provider or a full
// PROVIDER/MODEL ID, of the same provider or of another configured one (with
// no current model at all, a configured provider's full ID is the answer).
func Switch(e *Env, p Prompter, current, arg string) (string, error) {
	if current == "" {
		current = e.Config.DefaultModel
	}
	prov, curModel, ok := config.ParseModelID(current)
	if !ok {
		if ap, am, full := config.ParseModelID(strings.TrimSpace(arg)); full {
			if _, known := e.Config.Lookup(ap); known { // no model yet: a configured provider's model is one
				return ap + "/" + am, nil
			}
		}
		return "", errors.New("no current model: set one with `pincer model default PROVIDER/MODEL` or `pincer model configure`, or name one: /model switch PROVIDER/MODEL")
	}
	pc, known := e.Config.Lookup(prov)
	if arg != "" {
		model := strings.TrimSpace(arg)
		if ap, am, full := config.ParseModelID(model); full && !pc.HasModel(model) {
			// A full ID; a name of the active provider's own list ("anthropic/…" on
			// OpenRouter) is taken as a model name.
			if ap == prov {
				model = am
			} else if _, other := e.Config.Lookup(ap); other {
				return ap + "/" + am, nil // another configured provider's model: the session moves to it
			}
		}
		if known && !pc.HasModel(model) {
			e.printf("note: %s is not in %s's model list (add it with `pincer model add-model %s %s`)", model, prov, prov, model)
		}
		return prov + "/" + model, nil
	}
	models := pc.Models
	if !contains(models, curModel) {
		models = append([]string{curModel}, models...)
	}
	options := make([]string, len(models))
	def := -1
	for i, m := range models {
		options[i] = m
		if m == curModel {
			options[i] += " · current"
			def = i
		}
	}
	i, err := p.Choose("Model for this session ("+prov+")", options, def)
	if err != nil {
		return "", cancelled(err)
	}
	return prov + "/" + models[i], nil
}

// SetDefault makes id ("provider/model") the global default in the user file.
func SetDefault(ctx context.Context, e *Env, id string) error {
	prov, model, ok := config.ParseModelID(id)
	if !ok {
		return badArgf("want PROVIDER/MODEL, got %q", id)
	}
	pc, known := e.Config.Lookup(prov)
	if !known {
		return e.unknownProvider(prov)
	}
	if err := config.Update(e.Config.UserPath, func(u *config.UserFile) error { return u.SetDefaultModel(id) }); err != nil {
		return err
	}
	e.printf("Default model: %s", id)
	if !pc.HasModel(model) {
		e.printf("note: %s is not in %s's model list (add it with `pincer model add-model %s %s`)", model, prov, prov, model)
	}
	key, _ := e.Key(ctx, prov)
	if missing := pc.Missing(key != ""); len(missing) > 0 {
		e.printf("note: %s is not ready: it needs %s (`pincer model configure %s`)", prov, strings.Join(missing, ", "), prov)
	}
	return nil
}

// AddModel joins model to the provider's list in the user file.
func AddModel(e *Env, prov, model string) error {
	model = strings.TrimSpace(model)
	if _, known := e.Config.Lookup(prov); !known {
		return e.unknownProvider(prov)
	}
	if model == "" {
		return badArgf("add-model needs a model name")
	}
	if err := config.Update(e.Config.UserPath, func(u *config.UserFile) error { return u.AddModels(prov, model) }); err != nil {
		return err
	}
	e.printf("Added %s/%s", prov, model)
	return nil
}

// SetAPIKey stores a provider's key; key "" asks for it (hidden). The key is never
// printed: the notice says where it went.
func SetAPIKey(ctx context.Context, e *Env, p Prompter, prov, key string) error {
	if !config.ValidProviderName(prov) {
		return badArgf("%q cannot name a provider", prov)
	}
	if e.Secrets == nil {
		return errors.New("no secret store available")
	}
	if key == "" {
		var err error
		if key, err = p.AskSecret(fmt.Sprintf("API key for %s (input hidden)", prov)); err != nil {
			return cancelled(err)
		}
	}
	if key = strings.TrimSpace(key); key == "" {
		return ErrCancelled
	}
	notice, err := e.Secrets.Set(ctx, secret.ProviderKey(prov), key)
	if err != nil {
		return err
	}
	e.printf("API key for %s %s.", prov, notice)
	if _, src := e.Key(ctx, prov); strings.HasPrefix(src, "environment") {
		e.printf("note: %s is set and takes precedence over the stored key.", strings.TrimPrefix(src, "environment: "))
	}
	return nil
}

// required turns an empty answer into ErrCancelled.
func required(s string, err error) (string, error) {
	if err != nil {
		return "", cancelled(err)
	}
	if s = strings.TrimSpace(s); s == "" {
		return "", ErrCancelled
	}
	return s, nil
}

// cancelled maps a prompter error (or a refusal, err == nil) to ErrCancelled.
func cancelled(err error) error {
	if err == nil || errors.Is(err, ErrCancelled) || errors.Is(err, io.EOF) {
		return ErrCancelled
	}
	return fmt.Errorf("%w (%v)", ErrCancelled, err)
}

// contains reports whether list has s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// union is a then the names of b not in a, without duplicates or blanks.
func union(a, b []string) []string {
	var out []string
	for _, s := range append(slices.Clone(a), b...) {
		if s = strings.TrimSpace(s); s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
