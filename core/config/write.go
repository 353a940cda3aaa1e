package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	tomlparser "github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"

	"pincer/core/secret"
)

// writeMu serialises read-change-write cycles of the user file in this process. Two
// processes saving at the same instant may lose one change (the later rename wins);
// neither leaves a torn file.
var writeMu sync.Mutex

// UserFile is the user's config file opened for a change: the file alone — never
// the merged layers, which hold defaults, environment and flags — so that a save
// writes back exactly what the user had plus the change. Comments do not survive a
// save; other tables do.
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
	u := &UserFile{path: path, k: koanf.New(".")}
	data, err := file.Provider(path).ReadBytes()
	if errors.Is(err, fs.ErrNotExist) {
		return u, nil
	}
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	m, err := tomlparser.Parser().Unmarshal(data)
	if err != nil {
		return nil, parseError(path, err)
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
	return u.Set("providers."+name+".models", union(u.Models(name), models))
}

// Save writes the file whole: a temporary file in the same directory (mode 0600),
// then rename. It refuses to write a key-like entry at the top level or under
// [providers] — whoever put one there must move it to the secret store first.
func (u *UserFile) Save() error {
	raw := u.k.Raw()
	for key := range raw {
		if IsSecretKey(key) {
			return fmt.Errorf("%s: %s: %w", u.path, key, errSecretKey)
		}
	}
	provs, _ := raw["providers"].(map[string]any)
	for name, v := range provs {
		fields, _ := v.(map[string]any)
		for f := range fields {
			if IsSecretKey(f) {
				return fmt.Errorf("%s: providers.%s.%s: remove it, then store the key with `pincer model set %s api-key`: %w",
					u.path, name, f, name, errSecretKey)
			}
		}
	}
	out, err := u.k.Marshal(tomlparser.Parser())
	if err != nil {
		return fmt.Errorf("%s: %w", u.path, err)
	}
	if err := os.MkdirAll(filepath.Dir(u.path), 0o700); err != nil {
		return err
	}
	return secret.WriteFileAtomic(u.path, out)
}

// Update opens the user file at path, applies change and saves it once, holding
// this process's write lock throughout. Nothing is written when change fails.
func Update(path string, change func(*UserFile) error) error {
	writeMu.Lock()
	defer writeMu.Unlock()
	u, err := OpenUserFile(path)
	if err != nil {
		return err
	}
	if err := change(u); err != nil {
		return err
	}
	return u.Save()
}
