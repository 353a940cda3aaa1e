// Package secret keeps API keys out of pincer's configuration files. Keys live in
// a chain of backends, read in this order:
//
//  1. an external read-only command (PINCER_SECRET_COMMAND), run with only
//     PINCER_SECRET_KEY=<name>, PATH and HOME in its environment, a 3 s timeout and a
//     1 MiB output cap; it prints the value, or name=value lines (Command);
//  2. the OS keyring through go-keyring, under a service name that includes a short
//     hash of the configuration directory (PINCER_HOME), so that two profiles never
//     share keys; every call is bounded by a timeout because Secret Service can hang
//     (Keyring);
//  3. an AES-256-GCM encrypted file in the configuration directory: secrets.json and
//     a 32-byte secrets.key, both mode 0600, a fresh 12-byte nonce on every write, an
//     atomic replace (File).
//
// Writes go to the keyring, or to the file when the keyring is unavailable, and Set
// returns one notice saying which. The external command is read-only: a value it
// supplies is never copied into the keyring or the file.
//
// Invariants: no function of this package prints, logs or returns a secret value in
// an error message or notice; an error names the backend and the secret's name
// only. The encrypted file protects against a key being read off the disk in clear
// (a backup, a pasted directory listing), not against a program running as the same
// user, which can read secrets.key too.
package secret

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
)

// ErrNotFound is returned (wrapped) when no backend holds a secret.
var ErrNotFound = errors.New("secret not found")

// ErrUnavailable is returned (wrapped) by a backend that cannot be used on this
// machine: no D-Bus session, no Secret Service, a call that timed out.
var ErrUnavailable = errors.New("backend unavailable")

// SecretStore is what the rest of pincer uses: look a secret up through the chain,
// store one, forget one.
type SecretStore interface {
	// Get returns the value of name and the backend that held it ("secret command",
	// "OS keyring", "encrypted file"); an error wrapping ErrNotFound when none does.
	Get(ctx context.Context, name string) (value, source string, err error)
	// Set stores value under name and returns a one-line notice saying where.
	Set(ctx context.Context, name, value string) (notice string, err error)
	// Delete removes name from every writable backend; a missing secret is no error.
	Delete(ctx context.Context, name string) error
}

// Backend is one link of the chain.
type Backend interface {
	// Name says what the backend is, for notices ("OS keyring").
	Name() string
	// Get returns the value of name, an error wrapping ErrNotFound when it has none,
	// or one wrapping ErrUnavailable when the backend cannot be used.
	Get(ctx context.Context, name string) (string, error)
}

// Writer is a backend that can also store and forget secrets.
type Writer interface {
	Backend
	Set(ctx context.Context, name, value string) error
	Delete(ctx context.Context, name string) error
}

// ProviderKey is the secret name of a provider's API key ("provider:openai").
func ProviderKey(provider string) string { return "provider:" + provider }

// ServiceName is the keyring service for the configuration directory dir:
// "pincer-" and the first 12 hex digits of the SHA-256 of its absolute path.
func ServiceName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	sum := sha256.Sum256([]byte(dir))
	return "pincer-" + hex.EncodeToString(sum[:])[:12]
}

// Chain is the SecretStore of pincer: Command (optional) → Keyring → File. A nil
// link is skipped. After a backend reports ErrUnavailable (or the command times
// out) the chain stops asking it for the rest of the process, so that a machine
// without a keyring pays the timeout once, not once per provider.
type Chain struct {
	Command Backend // read-only; may be nil
	Keyring Writer  // may be nil
	File    Writer  // may be nil

	mu   sync.Mutex
	down map[Backend]error // backends found unusable, with the reason
}

// Open builds the standard chain for the configuration directory dir: the
// command from getenv("PINCER_SECRET_COMMAND") when set, the OS keyring under
// ServiceName(dir), and the encrypted file in dir.
func Open(dir string, getenv func(string) string) *Chain {
	c := &Chain{Keyring: NewKeyring(ServiceName(dir)), File: NewFile(dir)}
	if line := getenv("PINCER_SECRET_COMMAND"); line != "" {
		c.Command = NewCommand(line, getenv)
	}
	return c
}

// isDown reports whether b was found unusable earlier.
func (c *Chain) isDown(b Backend) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.down[b]
	return ok
}

// markDown records that b is unusable for the rest of the process.
func (c *Chain) markDown(b Backend, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down == nil {
		c.down = map[Backend]error{}
	}
	c.down[b] = err
}

// links returns the chain's backends in reading order, skipping nil ones.
func (c *Chain) links() []Backend {
	var out []Backend
	for _, b := range []Backend{c.Command, c.Keyring, c.File} {
		if b != nil && !isNilWriter(b) {
			out = append(out, b)
		}
	}
	return out
}

// isNilWriter catches a typed nil stored in an interface field.
func isNilWriter(b Backend) bool {
	switch v := b.(type) {
	case *Keyring:
		return v == nil
	case *File:
		return v == nil
	case *Command:
		return v == nil
	}
	return false
}

// Get reads name through the chain. A backend that fails (the command exits
// non-zero, the keyring is unavailable) is passed over; when no backend has the
// secret the error wraps ErrNotFound and mentions those failures (never a value).
func (c *Chain) Get(ctx context.Context, name string) (string, string, error) {
	var problems []error
	for _, b := range c.links() {
		if c.isDown(b) {
			continue
		}
		v, err := b.Get(ctx, name)
		switch {
		case err == nil && v != "":
			return v, b.Name(), nil
		case err == nil, errors.Is(err, ErrNotFound):
		case errors.Is(err, ErrUnavailable), errors.Is(err, errTimeout):
			c.markDown(b, err)
			problems = append(problems, err)
		default:
			problems = append(problems, err)
		}
	}
	if len(problems) > 0 {
		return "", "", fmt.Errorf("%w: %s (%v)", ErrNotFound, name, errors.Join(problems...))
	}
	return "", "", fmt.Errorf("%w: %s", ErrNotFound, name)
}

// Set stores name in the keyring, or in the encrypted file when the keyring is
// unavailable, and returns a notice saying which. A copy left in the file by an
// earlier fallback is removed once the keyring holds the new value.
func (c *Chain) Set(ctx context.Context, name, value string) (string, error) {
	if value == "" {
		return "", errors.New("an empty secret cannot be stored")
	}
	var notice string
	var keyringErr error
	if c.Keyring != nil && !isNilWriter(c.Keyring) && !c.isDown(c.Keyring) {
		keyringErr = c.Keyring.Set(ctx, name, value)
		if keyringErr == nil {
			notice = fmt.Sprintf("saved in the OS keyring (%s)", c.Keyring.Name())
			if c.File != nil && !isNilWriter(c.File) {
				_ = c.File.Delete(ctx, name) // best effort: no stale copy on disk
			}
		} else {
			c.markDown(c.Keyring, keyringErr)
		}
	} else if c.Keyring != nil && !isNilWriter(c.Keyring) {
		keyringErr = c.reason(c.Keyring)
	}
	if notice == "" {
		if c.File == nil || isNilWriter(c.File) {
			if keyringErr != nil {
				return "", fmt.Errorf("cannot store %s: the OS keyring is unavailable (%v) and there is no file store", name, keyringErr)
			}
			return "", fmt.Errorf("cannot store %s: no writable secret store", name)
		}
		if err := c.File.Set(ctx, name, value); err != nil {
			return "", fmt.Errorf("cannot store %s: %w", name, err)
		}
		notice = fmt.Sprintf("saved in the %s", c.File.Name())
		if keyringErr != nil {
			notice = fmt.Sprintf("the OS keyring is unavailable (%v); %s", keyringErr, notice)
		}
	}
	if c.Command != nil && !isNilWriter(c.Command) {
		notice += "; note: PINCER_SECRET_COMMAND is asked first, this copy is used only when it prints nothing for " + name
	}
	return notice, nil
}

// reason returns why b was marked down.
func (c *Chain) reason(b Backend) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.down[b]
}

// Delete removes name from the keyring and the file. The external command is
// read-only and left alone.
func (c *Chain) Delete(ctx context.Context, name string) error {
	var errs []error
	for _, w := range []Writer{c.Keyring, c.File} {
		if w == nil || isNilWriter(w) || c.isDown(w) {
			continue
		}
		if err := w.Delete(ctx, name); err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrUnavailable) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
