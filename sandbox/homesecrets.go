package sandbox

import (
	"os"
	"path/filepath"
)

// SecretBase says which directory a HomeSecret's Path is relative to.
type SecretBase int

const (
	// BaseHome is the home directory itself.
	BaseHome SecretBase = iota
	// BaseConfig is the XDG config directory: ~/.config, and $XDG_CONFIG_HOME
	// too when it is set (a tool that ignores the variable still writes to
	// ~/.config, so both are hidden).
	BaseConfig
	// BaseData is the XDG data directory: ~/.local/share, and $XDG_DATA_HOME
	// too when it is set.
	BaseData
	// BaseCache is the XDG cache directory: ~/.cache, and $XDG_CACHE_HOME too
	// when it is set.
	BaseCache
)

// HomeSecret is one location below the user's directories that holds
// credentials (a key, a token, a password, a session cookie) or a history
// that records them. It is hidden from every sandboxed command (an empty
// tmpfs over a directory, /dev/null over a file) and pincer's file tools
// never read it (core/permission's hidden reads, tools' own check).
type HomeSecret struct {
	Base  SecretBase // what Path is relative to
	Path  string     // slash-separated, relative to Base; a file or a directory
	Holds string     // what it holds, for people (pincer doctor, reviews)
}

// HomeSecrets is the one list of credentials locations below the home
// directory: the sandbox hides them from commands (DefaultHiddenPaths) and
// the permission engine denies a file tool's read of them up front
// (core/permission hiddenread.go); both take their absolute paths from
// HomeSecretPaths. Add a location here and both see it.
var HomeSecrets = []HomeSecret{
	// SSH, GnuPG, netrc, desktop secret stores.
	{BaseHome, ".ssh", "SSH private keys, known hosts, agent config"},
	{BaseHome, ".gnupg", "GnuPG private keys"},
	{BaseHome, ".netrc", "machine logins for curl, ftp, git, heroku"},
	{BaseData, "keyrings", "GNOME keyring files (every saved password)"},
	{BaseHome, ".password-store", "pass, the standard Unix password manager"},
	{BaseConfig, "op", "1Password CLI session and account config"},
	// Clouds and clusters.
	{BaseHome, ".aws", "AWS access keys and SSO tokens"},
	{BaseConfig, "gcloud", "Google Cloud credentials and tokens"},
	{BaseHome, ".azure", "Azure CLI tokens"},
	{BaseHome, ".oci", "Oracle Cloud API keys"},
	{BaseConfig, "doctl", "DigitalOcean API token"},
	{BaseHome, ".kube", "Kubernetes cluster credentials"},
	{BaseHome, ".docker", "Docker registry logins"},
	{BaseConfig, "containers/auth.json", "Podman and Buildah registry logins"},
	{BaseHome, ".s3cfg", "s3cmd access keys"},
	{BaseHome, ".boto", "boto and gsutil credentials"},
	{BaseConfig, "rclone/rclone.conf", "rclone remotes with their tokens and passwords"},
	{BaseHome, ".pulumi/credentials.json", "Pulumi access tokens"},
	{BaseHome, ".terraform.d/credentials.tfrc.json", "Terraform Cloud tokens"},
	{BaseHome, ".vault-token", "HashiCorp Vault token"},
	// Hosting and deploy CLIs.
	{BaseConfig, "heroku", "Heroku CLI config (its token lives in ~/.netrc)"},
	{BaseConfig, "netlify", "Netlify CLI access token"},
	{BaseHome, ".netlify", "Netlify CLI access token (older versions)"},
	{BaseConfig, "configstore/firebase-tools.json", "Firebase CLI refresh token"},
	{BaseHome, ".wrangler", "Cloudflare wrangler OAuth token (older versions)"},
	{BaseConfig, ".wrangler", "Cloudflare wrangler OAuth token"},
	// Forges and git.
	{BaseConfig, "gh", "GitHub CLI OAuth token"},
	{BaseConfig, "hub", "hub's GitHub token"},
	{BaseHome, ".git-credentials", "git's credential store (plain text)"},
	{BaseConfig, "git/credentials", "git's credential store, XDG location"},
	{BaseConfig, "github-copilot", "GitHub Copilot OAuth tokens (hosts.json, apps.json)"},
	// Package registries.
	{BaseHome, ".pypirc", "PyPI upload tokens"},
	{BaseHome, ".cargo/credentials", "crates.io token (old name)"},
	{BaseHome, ".cargo/credentials.toml", "crates.io token"},
	{BaseHome, ".npmrc", "npm registry tokens"},
	{BaseHome, ".yarnrc.yml", "Yarn registry tokens"},
	{BaseHome, ".gem/credentials", "RubyGems API key"},
	{BaseHome, ".m2/settings.xml", "Maven server passwords"},
	{BaseHome, ".gradle/gradle.properties", "Gradle publishing credentials"},
	// AI tools and model hubs.
	{BaseHome, ".claude/.credentials.json", "Claude Code OAuth tokens"},
	{BaseHome, ".codex/auth.json", "Codex CLI API key and tokens"},
	{BaseConfig, "anthropic", "Anthropic CLI and SDK keys"},
	{BaseConfig, "openai", "OpenAI CLI keys"},
	{BaseHome, ".huggingface/token", "Hugging Face token (old location)"},
	{BaseCache, "huggingface/token", "Hugging Face token"},
	{BaseHome, ".ollama/id_ed25519", "Ollama's private key (signs registry pushes)"},
	// Databases.
	{BaseHome, ".pgpass", "PostgreSQL passwords"},
	{BaseHome, ".my.cnf", "MySQL client password"},
	// Browsers and editors: saved logins and session cookies.
	{BaseHome, ".mozilla", "Firefox profiles: logins.json, key4.db, cookies"},
	{BaseConfig, "google-chrome", "Chrome profiles: Login Data, Cookies"},
	{BaseConfig, "chromium", "Chromium profiles: Login Data, Cookies"},
	{BaseConfig, "BraveSoftware", "Brave profiles: Login Data, Cookies"},
	{BaseConfig, "microsoft-edge", "Edge profiles: Login Data, Cookies"},
	{BaseConfig, "vivaldi", "Vivaldi profiles: Login Data, Cookies"},
	{BaseData, "qutebrowser", "qutebrowser cookies and history"},
	{BaseData, "epiphany", "GNOME Web cookies and saved passwords"},
	{BaseHome, "snap/chromium", "Chromium installed as a snap: its profiles"},
	{BaseHome, "snap/firefox", "Firefox installed as a snap: its profiles"},
	{BaseHome, ".var/app/org.chromium.Chromium", "Chromium installed as a Flatpak: its profiles"},
	{BaseHome, ".var/app/org.mozilla.firefox", "Firefox installed as a Flatpak: its profiles"},
	{BaseHome, ".var/app/com.google.Chrome", "Chrome installed as a Flatpak: its profiles"},
	{BaseHome, ".var/app/com.brave.Browser", "Brave installed as a Flatpak: its profiles"},
	{BaseCache, "mozilla", "Firefox's cache (session data, cached pages of logged-in sites)"},
	{BaseCache, "chromium", "Chromium's cache (cached pages of logged-in sites)"},
	{BaseCache, "google-chrome", "Chrome's cache (cached pages of logged-in sites)"},
	{BaseConfig, "Code/User/globalStorage", "VS Code extensions' stored state and tokens"},
	// Histories: commands and queries typed with passwords and tokens in them.
	{BaseHome, ".bash_history", "bash history"},
	{BaseHome, ".zsh_history", "zsh history"},
	{BaseData, "fish/fish_history", "fish history"},
	{BaseHome, ".psql_history", "psql history"},
	{BaseHome, ".mysql_history", "mysql client history"},
	{BaseHome, ".python_history", "Python REPL history"},
	{BaseHome, ".node_repl_history", "Node REPL history"},
	{BaseHome, ".sqlite_history", "sqlite3 history"},
	{BaseHome, ".rediscli_history", "redis-cli history (AUTH passwords)"},
	// Added for red team r17 F9 (the credentials table's gaps).
	{BaseHome, ".gemini/oauth_creds.json", "Gemini CLI OAuth tokens"},
	{BaseHome, ".gemini/google_accounts.json", "Gemini CLI signed-in Google accounts"},
	{BaseHome, ".qwen/oauth_creds.json", "Qwen Code OAuth tokens"},
	{BaseData, "opencode/auth.json", "opencode's provider API keys and OAuth tokens"},
	{BaseData, "crush", "Crush's data dir: provider keys it stored, sessions"},
	{BaseConfig, "goose/secrets.yaml", "goose's provider API keys (file keyring)"},
	{BaseHome, ".codeium", "Codeium and Windsurf auth tokens"},
	{BaseHome, ".continue/config.json", "Continue's model provider API keys"},
	{BaseHome, ".continue/config.yaml", "Continue's model provider API keys"},
	{BaseHome, ".aider.conf.yml", "aider's settings, often with provider API keys"},
	{BaseData, "com.vercel.cli/auth.json", "Vercel CLI token"},
	{BaseHome, ".vercel", "Vercel CLI token (older versions)"},
	{BaseHome, ".fly/config.yml", "fly.io CLI access token"},
	{BaseHome, ".supabase/access-token", "Supabase CLI access token"},
	{BaseConfig, "stripe/config.toml", "Stripe CLI API keys"},
	{BaseHome, ".railway/config.json", "Railway CLI token"},
	{BaseConfig, "glab-cli/config.yml", "GitLab CLI tokens"},
	{BaseConfig, "hcloud/cli.toml", "Hetzner Cloud API tokens"},
	{BaseConfig, "linode-cli", "Linode CLI token"},
	{BaseHome, ".sentryclirc", "Sentry CLI auth token"},
	{BaseHome, ".circleci/cli.yml", "CircleCI CLI API token"},
	{BaseHome, ".dockercfg", "Docker registry logins (old format)"},
	{BaseConfig, "sops/age/keys.txt", "age private keys SOPS decrypts with"},
	{BaseHome, ".bitcoin", "Bitcoin Core wallets"},
	{BaseHome, ".electrum", "Electrum wallets"},
	{BaseHome, ".ethereum/keystore", "Ethereum account keys (geth keystore)"},
	{BaseHome, ".foundry/keystores", "Foundry (cast) encrypted keys"},
	{BaseConfig, "solana/id.json", "Solana CLI keypair (a plain private key)"},
	{BaseHome, ".kaggle/kaggle.json", "Kaggle API key"},
	{BaseConfig, "kaggle/kaggle.json", "Kaggle API key, XDG location"},
	{BaseHome, ".composer/auth.json", "Composer registry tokens"},
	{BaseConfig, "composer/auth.json", "Composer registry tokens, XDG location"},
	{BaseHome, ".nuget/NuGet/NuGet.Config", "NuGet feed credentials"},
	{BaseConfig, "pip/pip.conf", "pip index URLs with credentials"},
	{BaseHome, ".pip/pip.conf", "pip index URLs with credentials (old location)"},
	{BaseHome, ".ivy2/.credentials", "Ivy and sbt publishing credentials"},
	{BaseHome, ".sbt/.credentials", "sbt publishing credentials"},
	{BaseConfig, "helm/repositories.yaml", "Helm chart repositories with their passwords"},
	{BaseConfig, "jfrog", "JFrog CLI server tokens"},
	{BaseHome, ".dbshell", "mongo shell history"},
	{BaseData, "mongodb/mongosh", "mongosh history"},
}

// HomeSecretPaths returns the absolute paths of HomeSecrets for home, with the
// XDG directories read through getenv (XDG_CONFIG_HOME, XDG_DATA_HOME,
// XDG_CACHE_HOME; an unset or relative one means its default below home, and a
// set one adds its location to the default's). Clean, in table order, without
// repeats; some may not exist. Nil getenv is os.Getenv; an empty home gives
// only the XDG-based locations.
func HomeSecretPaths(getenv func(string) string, home string) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	bases := map[SecretBase][]string{}
	addBase := func(b SecretBase, def, env string) {
		if home != "" {
			bases[b] = append(bases[b], filepath.Join(home, def))
		}
		if x := getenv(env); x != "" && filepath.IsAbs(x) {
			bases[b] = append(bases[b], filepath.Clean(x))
		}
	}
	if home != "" {
		bases[BaseHome] = []string{filepath.Clean(home)}
	}
	addBase(BaseConfig, ".config", "XDG_CONFIG_HOME")
	addBase(BaseData, ".local/share", "XDG_DATA_HOME")
	addBase(BaseCache, ".cache", "XDG_CACHE_HOME")
	var out []string
	for _, s := range HomeSecrets {
		for _, b := range bases[s.Base] {
			out = append(out, filepath.Join(b, filepath.FromSlash(s.Path)))
		}
	}
	return dedupe(out)
}
