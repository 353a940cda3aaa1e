package modelflow

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"pincer/core/config"
)

// ProviderStatus is one provider's readiness, as Status reports it. It never holds
// the key itself.
type ProviderStatus struct {
	Provider  config.Provider
	KeySource string   // where the key was found; "" when none
	Missing   []string // empty: ready
}

// Ready reports whether nothing is missing.
func (s ProviderStatus) Ready() bool { return len(s.Missing) == 0 }

// Statuses returns every provider's readiness, sorted by name.
func Statuses(ctx context.Context, e *Env) []ProviderStatus {
	var out []ProviderStatus
	for _, name := range e.Config.Names() {
		p := e.Config.Providers[name]
		_, src := e.Key(ctx, name)
		out = append(out, ProviderStatus{Provider: p, KeySource: src, Missing: p.Missing(src != "")})
	}
	return out
}

// Status writes the default model and every provider's readiness: base URL,
// model, model list, and the key as "[configured]" with its source — never a
// prefix, a suffix or a length.
func Status(ctx context.Context, e *Env, w io.Writer) {
	if e.Config.DefaultModel != "" {
		fmt.Fprintf(w, "Default model: %s (from %s)\n", e.Config.DefaultModel, e.Config.DefaultSource)
	} else {
		fmt.Fprintln(w, "Default model: none (run `pincer model configure`)")
	}
	if e.Config.UserPath != "" {
		fmt.Fprintf(w, "Config file:   %s\n", e.Config.UserPath)
	}
	for _, s := range Statuses(ctx, e) {
		p := s.Provider
		state := "ready"
		if !s.Ready() {
			state = "not ready: needs " + strings.Join(s.Missing, ", ")
		}
		origin := p.Kind
		if p.Configured() {
			origin += ", configured in " + p.Source
		}
		fmt.Fprintf(w, "\n%s (%s, %s API) — %s\n", p.Name, origin, p.API, state)
		fmt.Fprintf(w, "  base URL: %s\n", orNone(p.BaseURL))
		fmt.Fprintf(w, "  model:    %s\n", orNone(p.Model))
		fmt.Fprintf(w, "  models:   %s\n", orNone(shortList(p.Models, 8)))
		switch {
		case s.KeySource != "":
			fmt.Fprintf(w, "  API key:  [configured] (%s)\n", s.KeySource)
		case p.RequiresAPIKey:
			fmt.Fprintf(w, "  API key:  not set (`pincer model set %s api-key` or %s)\n", p.Name, p.KeyEnv[0])
		default:
			fmt.Fprintln(w, "  API key:  not required")
		}
	}
}

// List writes every provider/model ID, grouped by provider, marking the global
// default with "*" and current (a session's model, "" for none) with ">".
func List(ctx context.Context, e *Env, w io.Writer, current string) {
	for _, s := range Statuses(ctx, e) {
		p := s.Provider
		head := p.Name
		if !s.Ready() {
			head += " (not ready: needs " + strings.Join(s.Missing, ", ") + ")"
		}
		fmt.Fprintln(w, head)
		models := p.Models
		for _, id := range []string{e.Config.DefaultModel, current} {
			if prov, m, ok := config.ParseModelID(id); ok && prov == p.Name && !p.HasModel(m) {
				models = append(models, m)
			}
		}
		for _, m := range models {
			id := p.Name + "/" + m
			mark, note := " ", ""
			if id == e.Config.DefaultModel {
				mark, note = "*", "  (default)"
			}
			if current != "" && id == current {
				mark, note = ">", note+"  (current)"
			}
			fmt.Fprintf(w, "  %s %s%s\n", mark, id, note)
		}
	}
}

// Lister fetches the model names a provider serves (GET /models through its
// adapter). key is "" for providers that need none.
type Lister func(ctx context.Context, p config.Provider, key string) ([]string, error)

// RefreshTimeout bounds one provider's discovery.
const RefreshTimeout = 20 * time.Second

// Refresh asks providers for their models and joins the answers to their lists in
// the user file, in one write. names "" refreshes every configured provider and
// the default model's. A provider without a base URL, or without a key it needs,
// is skipped with a line; one that fails is reported and the others still count.
// The error lists the providers that failed.
func Refresh(ctx context.Context, e *Env, names []string, list Lister) error {
	if len(names) == 0 {
		dp, _, _ := config.ParseModelID(e.Config.DefaultModel)
		for _, n := range e.Config.Names() {
			if e.Config.Providers[n].Configured() || n == dp {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			e.printf("Nothing to refresh: name a provider (`pincer model refresh ollama`) or configure one.")
			return nil
		}
	}
	type result struct {
		name   string
		models []string
		err    error
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results []result
	)
	for _, name := range names {
		p, ok := e.Config.Lookup(name)
		if !ok {
			e.printf("refresh skipped: unknown provider %q (`pincer model configure %s`)", name, name)
			continue
		}
		key, _ := e.Key(ctx, name)
		if strings.TrimSpace(p.BaseURL) == "" || (p.RequiresAPIKey && key == "") {
			need := "a base URL"
			if p.BaseURL != "" {
				need = "an API key (`pincer model set " + name + " api-key`)"
			}
			e.printf("refresh skipped: %s is not ready (needs %s)", name, need)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithTimeout(ctx, RefreshTimeout)
			defer cancel()
			models, err := list(c, p, key)
			if err != nil && key != "" {
				err = fmt.Errorf("%s", strings.ReplaceAll(err.Error(), key, "[redacted]"))
			}
			mu.Lock()
			results = append(results, result{name, models, err})
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(results, func(i, j int) bool { return results[i].name < results[j].name })
	var failed []string
	changed := false
	for _, r := range results {
		if r.err != nil {
			e.printf("refresh %s failed: %v", r.name, r.err)
			failed = append(failed, r.name)
			continue
		}
		p := e.Config.Providers[r.name]
		fresh := 0
		for _, m := range r.models {
			if !p.HasModel(m) {
				fresh++
			}
		}
		e.printf("%s: %d models (%d new)", r.name, len(r.models), fresh)
		changed = changed || len(r.models) > 0
	}
	if changed {
		err := config.Update(e.Config.UserPath, func(u *config.UserFile) error {
			for _, r := range results {
				if r.err != nil || len(r.models) == 0 {
					continue
				}
				if err := u.AddModels(r.name, r.models...); err != nil {
					return err
				}
				if e.Config.Providers[r.name].Model == "" {
					if err := u.Set("providers."+r.name+".model", r.models[0]); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("refresh failed for %s", strings.Join(failed, ", "))
	}
	return nil
}

// orNone shows an empty value as "(none)".
func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

// shortList joins at most n names and counts the rest.
func shortList(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(list[:n], ", "), len(list)-n)
}
