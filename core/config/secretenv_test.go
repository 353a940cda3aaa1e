package config

import (
	"testing"

	"pincer/sandbox"
)

// Every variable a provider's key is read from is a secret to sandbox.SecretEnv,
// so hooks, pincer's own git and redaction know it: the built-in table here is
// the source, sandbox's list must cover it.
func TestKeyEnvIsSecretEnv(t *testing.T) {
	names := append(BuiltinNames(), "my-vllm", "custom")
	for _, n := range names {
		for _, k := range KeyEnv(n) {
			if !sandbox.SecretEnv(k) {
				t.Errorf("provider %s reads its key from %s, which sandbox.SecretEnv does not know", n, k)
			}
		}
	}
	if !sandbox.SecretEnv("PINCER_API_KEY") {
		t.Error("PINCER_API_KEY is not a secret")
	}
}
