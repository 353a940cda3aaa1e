package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	tomlparser "github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/v2"
)

// UserFile is the user's config file opened for a change: the file alone — never
// the merged layers, which hold defaults, environment and flags — so that a save
// writes back exactly what the user had plus the change: comments, order and
// the other tables stay (PatchTOML).
type UserFile struct {
	path string
	k    *koanf.Koanf
}

// ProviderSettings are the settings `pincer model configure` writes for a provider.
type ProviderSettings struct {
	Kind           string // KindBuiltin or KindCustom
	BaseURL        string
	Model          string
	Models         []string
	RequiresAPIKey bool
	API            string
}

// OpenUserFile reads path alone (a missing file is an empty one). A file that does
// not parse is an *Error with its line: it is not rewritten, so nothing the user
// wrote is lost.
func OpenUserFile(path string) (*UserFile, error) {
	if path == "" {
		return nil, errors.New("no config directory: set PINCER_HOME or HOME")
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	return parseUserFile(path, data)
}

// parseUserFile is OpenUserFile of the bytes data read from path.
func parseUserFile(path string, data []byte) (*UserFile, error) {
	u := &UserFile{path: path, k: koanf.New(".")}
	m, err := tomlparser.Parser().Unmarshal(data)
	if err != nil {
		return nil, TOMLError(path, err)
	}
	if err := u.k.Load(mapProvider(m), nil); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	return u, nil
}

// Path is the file's path.
func (u *UserFile) Path() string { return u.path }

// HasProvider reports whether the file has a [providers.NAME] table.
func (u *UserFile) HasProvider(name string) bool {
	provs, _ := u.k.Raw()["providers"].(map[string]any)
	_, ok := provs[name]
	return ok
}

// Models returns the file's model list of a provider.
func (u *UserFile) Models(name string) []string {
	provs, _ := u.k.Raw()["providers"].(map[string]any)
	p, _ := provs[name].(map[string]any)
	list, _ := stringList(p["models"])
	return list
}

// Set sets a dotted key. Key-like names (IsSecretKey) are refused: keys belong in
// the secret store.
func (u *UserFile) Set(key string, value any) error {
	if IsSecretKey(key) {
		return fmt.Errorf("%s: %w", key, errSecretKey)
	}
	if sl, ok := value.([]string); ok {
		value = toAny(sl)
	}
	return u.k.Set(key, value)
}

// SetProvider replaces the provider's table with s.
func (u *UserFile) SetProvider(name string, s ProviderSettings) error {
	if !ValidProviderName(name) {
		return fmt.Errorf("%q cannot name a provider: use letters, digits, '-' and '_'", name)
	}
	if err := ValidateBaseURL(s.BaseURL); err != nil {
		return fmt.Errorf("providers.%s.base_url: %w", name, err)
	}
	if s.API == "" {
		s.API = APIChat
	}
	if !oneOf(s.API, APIs) {
		return fmt.Errorf("providers.%s.api: want one of %s", name, strings.Join(APIs, ", "))
	}
	if s.Kind == "" {
		s.Kind = KindCustom
		if IsBuiltin(name) {
			s.Kind = KindBuiltin
		}
	}
	u.k.Delete("providers." + name)
	fields := map[string]any{
		"kind": s.Kind, "base_url": s.BaseURL, "model": s.Model, "models": union(nil, s.Models),
		"requires_api_key": s.RequiresAPIKey, "api": s.API,
	}
	for f, v := range fields {
		if err := u.Set("providers."+name+"."+f, v); err != nil {
			return err
		}
	}
	return nil
}

// SetDefaultModel sets default_model to "provider/model".
func (u *UserFile) SetDefaultModel(id string) error {
	if _, _, ok := ParseModelID(id); !ok {
		return fmt.Errorf("want PROVIDER/MODEL, got %q", id)
	}
	return u.Set("default_model", id)
}

// AddModels joins models to the file's list for the provider.
func (u *UserFile) AddModels(name string, models ...string) error {
	if !ValidProviderName(name) {
		return fmt.Errorf("%q cannot name a provider", name)
	}
	return u.Set("providers."+name+".models", union(union(u.Models(name), u.impliedModels(name)), models))
}

// impliedModels are the models the file names for a provider outside its
// list: the provider's `model` and default_model's model when it names this
// provider. Load makes both part of the provider's models, so a list written
// without them would drop a model the person had (new user r22: with only
// default_model = "local/fake-1", `add-model local fake-2` left fake-1 out).
func (u *UserFile) impliedModels(name string) []string {
	var out []string
	if m := strings.TrimSpace(u.k.String("providers." + name + ".model")); m != "" {
		out = append(out, m)
	}
	if p, m, ok := ParseModelID(u.k.String("default_model")); ok && p == name {
		out = append(out, m)
	}
	return out
}

// marshal renders the file as old changed to hold the file's keys now
// (PatchTOML: what the person wrote, comments included, stays where the
// change leaves it). It refuses to write a key-like entry at the top level or under
// [providers] — whoever put one there must move it to the secret store first.
func (u *UserFile) marshal(old []byte) ([]byte, error) {
	raw := u.k.Raw()
	for key := range raw {
		if IsSecretKey(key) {
			return nil, fmt.Errorf("%s: %s: %w", u.path, key, errSecretKey)
		}
	}
	provs, _ := raw["providers"].(map[string]any)
	for name, v := range provs {
		fields, _ := v.(map[string]any)
		for f := range fields {
			if IsSecretKey(f) {
				return nil, fmt.Errorf("%s: providers.%s.%s: remove it, then store the key with `pincer model set %s api-key`: %w",
					u.path, name, f, name, errSecretKey)
			}
		}
	}
	out, err := PatchTOML(old, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.path, err)
	}
	return out, nil
}

// Update changes the user file at path through Edit: under the file's lock (held
// across processes) it reads the file, applies change and writes the file whole
// (mode 0600, atomically), so concurrent updates, in this process or others, all
// land. Nothing is written when change fails or the file does not parse (an
// *Error with its line: what the user wrote is not lost).
func Update(path string, change func(*UserFile) error) error {
	return Edit(path, 0o600, func(old []byte) ([]byte, error) {
		u, err := parseUserFile(path, old)
		if err != nil {
			return nil, err
		}
		if err := change(u); err != nil {
			return nil, err
		}
		return u.marshal(old)
	})
}
