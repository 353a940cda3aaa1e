package secret

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// File names of the encrypted store, inside its directory.
const (
	FileName    = "secrets.json"
	KeyFileName = "secrets.key"
)

// fileAAD binds the ciphertext to this format; a file of another format or version
// fails authentication instead of decoding to garbage.
var fileAAD = []byte("pincer secrets v1")

// fileMu serialises reads and writes of every File in this process. Two processes
// writing at the same instant may lose one update (the later rename wins); neither
// leaves a torn file.
var fileMu sync.Mutex

// File is the AES-256-GCM file backend: Dir/secrets.json holds every secret as one
// encrypted JSON object, Dir/secrets.key the 32-byte random key. Both are mode
// 0600. Each write seals with a fresh 12-byte nonce and replaces secrets.json
// atomically (a temporary file, then rename). Reading never creates anything; the
// key is created on the first write.
type File struct {
	Dir string
}

// NewFile returns the file backend in dir.
func NewFile(dir string) *File { return &File{Dir: dir} }

// Name is "encrypted file <path>".
func (f *File) Name() string { return "encrypted file " + filepath.Join(f.Dir, FileName) }

// envelope is the JSON shape of secrets.json. Data is the GCM output (ciphertext
// followed by the 16-byte tag) of the JSON object name → value.
type envelope struct {
	Version int    `json:"version"`
	Nonce   string `json:"nonce"`
	Data    string `json:"data"`
}

// Get returns the secret name, or an error wrapping ErrNotFound.
func (f *File) Get(ctx context.Context, name string) (string, error) {
	fileMu.Lock()
	defer fileMu.Unlock()
	m, err := f.load()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", fmt.Errorf("%w in the %s", ErrNotFound, f.Name())
	}
	return v, nil
}

// Set stores value under name.
func (f *File) Set(ctx context.Context, name, value string) error {
	fileMu.Lock()
	defer fileMu.Unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	m[name] = value
	return f.save(m)
}

// Delete removes name; a missing one wraps ErrNotFound.
func (f *File) Delete(ctx context.Context, name string) error {
	fileMu.Lock()
	defer fileMu.Unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return fmt.Errorf("%w in the %s", ErrNotFound, f.Name())
	}
	delete(m, name)
	return f.save(m)
}

// load decrypts secrets.json; a missing file is an empty map.
func (f *File) load() (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(f.Dir, FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	key, err := os.ReadFile(filepath.Join(f.Dir, KeyFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is missing: the secrets in %s can no longer be read", KeyFileName, f.Name())
	}
	if err != nil {
		return nil, fmt.Errorf("read the key of the %s: %w", f.Name(), err)
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil || env.Version != 1 {
		return nil, fmt.Errorf("%s is not a pincer secrets file (version 1)", f.Name())
	}
	nonce, err1 := base64.StdEncoding.DecodeString(env.Nonce)
	sealed, err2 := base64.StdEncoding.DecodeString(env.Data)
	aead, err3 := newAEAD(key)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if len(nonce) != aead.NonceSize() {
		return nil, fmt.Errorf("%s: bad nonce length", f.Name())
	}
	plain, err := aead.Open(nil, nonce, sealed, fileAAD)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decrypt (wrong %s or a modified file)", f.Name(), KeyFileName)
	}
	m := map[string]string{}
	if err := json.Unmarshal(plain, &m); err != nil {
		return nil, fmt.Errorf("%s: decrypted content is not a JSON object", f.Name())
	}
	return m, nil
}

// save encrypts m with a fresh nonce and replaces secrets.json atomically.
func (f *File) save(m map[string]string) error {
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", f.Dir, err)
	}
	key, err := f.key()
	if err != nil {
		return err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return err
	}
	plain, err := json.Marshal(m)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return fmt.Errorf("random nonce: %w", err)
	}
	sealed := aead.Seal(nil, nonce, plain, fileAAD)
	clear(plain)
	out, err := json.MarshalIndent(envelope{Version: 1,
		Nonce: base64.StdEncoding.EncodeToString(nonce),
		Data:  base64.StdEncoding.EncodeToString(sealed)}, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(f.Dir, FileName), append(out, '\n'))
}

// key reads secrets.key, creating it (32 random bytes, 0600) when missing.
func (f *File) key() ([]byte, error) {
	path := filepath.Join(f.Dir, KeyFileName)
	key, err := os.ReadFile(path)
	if err == nil {
		if len(key) != 32 {
			return nil, fmt.Errorf("%s: want 32 bytes, found %d", path, len(key))
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if _, err := os.Stat(filepath.Join(f.Dir, FileName)); err == nil {
		return nil, fmt.Errorf("%s is missing but %s exists: refusing to replace secrets that can no longer be read", path, FileName)
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("random key: %w", err)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := fh.Write(key); err != nil {
		fh.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if err := fh.Close(); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return key, nil
}

// newAEAD is AES-256-GCM with the standard 12-byte nonce.
func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("%s: want 32 bytes, found %d", KeyFileName, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory (mode 0600, synced) renamed over path, so that a reader sees the old
// content or the new, never a part.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil { // make the rename durable; best effort
		_ = d.Sync()
		d.Close()
	}
	return nil
}
