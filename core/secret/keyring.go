package secret

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringTimeout bounds every keyring call. go-keyring takes no context, and Secret
// Service can hang (an unlock prompt nobody answers, D-Bus activation).
const KeyringTimeout = 2 * time.Second

// errTimeout marks a call abandoned after its timeout.
var errTimeout = errors.New("timed out")

// Keyring is the OS keyring backend (macOS Keychain, Linux Secret Service, Windows
// Credential Manager) through go-keyring. Items are stored under Service with the
// secret's name as the account. On Linux, "dbus-launch not found" (no session
// bus), a D-Bus error naming org.freedesktop.secrets (no Secret Service) and a
// timeout all count as ErrUnavailable.
type Keyring struct {
	Service string
	Timeout time.Duration // 0: KeyringTimeout

	api keyringAPI // nil: go-keyring's package functions (tests substitute a hanging one)
}

// keyringAPI is the part of go-keyring used here.
type keyringAPI interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// goKeyring calls go-keyring's package functions (which honour MockInit).
type goKeyring struct{}

func (goKeyring) Get(s, u string) (string, error) { return keyring.Get(s, u) }
func (goKeyring) Set(s, u, p string) error        { return keyring.Set(s, u, p) }
func (goKeyring) Delete(s, u string) error        { return keyring.Delete(s, u) }

// backend returns the keyring API in use.
func (k *Keyring) backend() keyringAPI {
	if k.api != nil {
		return k.api
	}
	return goKeyring{}
}

// NewKeyring returns the keyring backend for service (see ServiceName).
func NewKeyring(service string) *Keyring { return &Keyring{Service: service} }

// Name is "OS keyring, service <service>".
func (k *Keyring) Name() string { return "OS keyring, service " + k.Service }

// Get reads the item name.
func (k *Keyring) Get(ctx context.Context, name string) (string, error) {
	var v string
	err := k.call(ctx, func() error {
		var err error
		v, err = k.backend().Get(k.Service, name)
		return err
	})
	if err != nil {
		return "", err
	}
	return v, nil
}

// Set creates or replaces the item name.
func (k *Keyring) Set(ctx context.Context, name, value string) error {
	return k.call(ctx, func() error { return k.backend().Set(k.Service, name, value) })
}

// Delete removes the item name; a missing one wraps ErrNotFound.
func (k *Keyring) Delete(ctx context.Context, name string) error {
	return k.call(ctx, func() error { return k.backend().Delete(k.Service, name) })
}

// call runs f in a goroutine and waits at most the timeout (or until ctx ends). A
// call that does not return in time is abandoned — its goroutine may linger until
// the keyring answers — and reported as unavailable.
func (k *Keyring) call(ctx context.Context, f func() error) error {
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = KeyringTimeout
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-done:
		return classifyKeyring(err)
	case <-t.C:
		return fmt.Errorf("%w: OS keyring %w after %s", ErrUnavailable, errTimeout, timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// classifyKeyring maps go-keyring's errors onto ErrNotFound and ErrUnavailable.
// The messages kept are go-keyring's and D-Bus's, which never contain a value.
func classifyKeyring(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("%w in the OS keyring", ErrNotFound)
	}
	var ee *exec.Error
	msg := err.Error()
	switch {
	case errors.As(err, &ee), strings.Contains(msg, "dbus-launch"):
		return fmt.Errorf("%w: no D-Bus session (%v)", ErrUnavailable, err)
	case strings.Contains(msg, "org.freedesktop.secrets"), strings.Contains(msg, "ServiceUnknown"):
		return fmt.Errorf("%w: no Secret Service (%v)", ErrUnavailable, err)
	case errors.Is(err, keyring.ErrUnsupportedPlatform):
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return fmt.Errorf("%w: OS keyring: %v", ErrUnavailable, err)
}
