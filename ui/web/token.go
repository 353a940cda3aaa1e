package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is the name of the token's file in the run directory
// (config Paths.Run: $PINCER_HOME/run/serve.token with PINCER_HOME set). The
// sandbox and the file tools hide the run directory (sandbox/hidden.go), so
// a tool call cannot read it.
const TokenFile = "serve.token"

// NewToken returns a fresh bearer token: 32 random bytes as 64 hex digits.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// WriteToken writes token to dir/serve.token, mode 0600, dir made 0700 when
// missing (an existing file, a previous server's, is replaced), and returns
// the file's path and a remove that deletes it (at exit) while it still
// holds this token (a server started since keeps its own).
func WriteToken(dir, token string) (path string, remove func() error, err error) {
	if dir == "" {
		return "", nil, fmt.Errorf("token: no run directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("token: %w", err)
	}
	path = filepath.Join(dir, TokenFile)
	tmp, err := os.CreateTemp(dir, "."+TokenFile+".*")
	if err != nil {
		return "", nil, fmt.Errorf("token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err == nil {
		_, err = tmp.WriteString(token + "\n")
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return "", nil, fmt.Errorf("token: %w", err)
	}
	return path, func() error {
		b, err := os.ReadFile(path)
		if err != nil || strings.TrimSpace(string(b)) != token {
			return err
		}
		return os.Remove(path)
	}, nil
}

// tokenEqual compares a presented token with the server's in constant time.
func tokenEqual(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
