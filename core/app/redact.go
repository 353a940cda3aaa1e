package app

import (
	"os"

	"pincer/core/agent"
	"pincer/core/config"
)

// sessionRedactor is the Redactor of a session on model mc: the provider's API
// key pincer loaded (from PINCER_API_KEY, the provider's variables or the
// secret store), named after the variable that holds it or the provider's first
// key variable, and every secret-looking variable of pincer's environment
// (sandbox.SecretEnv). Values shorter than agent.MinRedactLen are left alone.
func sessionRedactor(mc ModelChoice) *agent.Redactor {
	secrets := agent.EnvSecrets(os.Environ())
	if mc.APIKey != "" {
		name := ""
		for k, v := range secrets {
			if v == mc.APIKey && (name == "" || k < name) {
				name = k
			}
		}
		if name == "" {
			name = "API key"
			if mc.Provider != "" {
				name = config.KeyEnv(mc.Provider)[0]
			}
		}
		secrets[name] = mc.APIKey
	}
	return agent.NewRedactor(secrets)
}
