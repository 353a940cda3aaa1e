package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"pincer/core/app"
	"pincer/core/config"
	"pincer/core/lsp"
	"pincer/sandbox"
)

// cmdDoctor is `pincer doctor`: what this machine lets pincer enforce and use — the
// OS sandbox's capabilities (Landlock, namespaces, rlimits), the policy in effect
// here (network on or off, the PID namespace, hidden paths, and how each protected
// path of the current workspace is kept), ripgrep, the default language servers
// found on PATH, the store's location, the checkpoints' usage, and which
// API-key variables are set (never their values); first the configuration
// files (doctorConfig) and the model (doctorModel). It exits 1 when a
// configuration file fails to parse; verbose lists every absent file and
// hidden path.
func cmdDoctor(stdout io.Writer, verbose bool) int {
	fmt.Fprintln(stdout, versionLine())
	failed := doctorConfig(stdout, verbose)
	doctorModel(stdout)
	fmt.Fprintln(stdout, "\nSandbox:")
	report := sandbox.Probe()
	fmt.Fprint(stdout, indent(strings.TrimRight(report.String(), "\n"), "  ")+"\n")
	doctorSandboxPolicy(stdout, report, verbose)
	fmt.Fprintln(stdout, "\nTools:")
	if p, err := exec.LookPath("rg"); err == nil {
		fmt.Fprintf(stdout, "  ripgrep: %s (Grep uses it)\n", p)
	} else {
		fmt.Fprintln(stdout, "  ripgrep: not installed (Grep uses its Go fallback; apt-get install ripgrep)")
	}
	if p, err := exec.LookPath("git"); err == nil {
		fmt.Fprintf(stdout, "  git: %s\n", p)
	} else {
		fmt.Fprintln(stdout, "  git: not installed")
	}
	fmt.Fprintln(stdout, "\nLanguage servers (defaults on PATH; [lsp] in config.toml adds or disables):")
	if ds := lsp.Defaults(nil); len(ds) > 0 {
		for _, d := range ds {
			p, _ := exec.LookPath(d.Command)
			fmt.Fprintf(stdout, "  %s: %s\n", d.Name, p)
		}
	} else {
		fmt.Fprintln(stdout, "  none found (gopls, pyright-langserver, typescript-language-server)")
	}
	fmt.Fprintln(stdout, "\nStore:")
	if dir, err := app.StoreDir(); err == nil {
		fmt.Fprintf(stdout, "  %s\n", dir)
	} else {
		fmt.Fprintf(stdout, "  unknown: %v\n", err)
	}
	u, err := app.CheckpointUsage(context.Background())
	doctorCheckpoints(stdout, u, err)
	fmt.Fprintln(stdout, "\nAPI keys in the environment:")
	any := false
	for _, k := range config.BuiltinKeyEnv() {
		if os.Getenv(k) != "" {
			fmt.Fprintf(stdout, "  %s is set\n", k)
			any = true
		}
	}
	if !any {
		fmt.Fprintln(stdout, "  none (a built-in provider's models need one; ollama/, lmstudio/ and a custom provider or --base-url server that asks for no key do not; keys saved with `pincer model set` are in the keyring: see Model above)")
	}
	if failed {
		return 1
	}
	return 0
}

// doctorSandboxPolicy prints the sandbox policy this directory gets (the config
// files as `pincer run` reads them, without flags) and how it is enforced: the
// network, the PID namespace, the hidden paths and each protected path.
func doctorSandboxPolicy(w io.Writer, r sandbox.Report, verbose bool) {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(w, "  policy: unknown (%v)\n", err)
		return
	}
	p := app.LoadSandboxPolicy(cwd, false, io.Discard) // its problems are the Config section's
	if p == nil {
		fmt.Fprintln(w, "  policy: OS sandbox OFF ([sandbox] enabled = false in your config)")
		return
	}
	if p.Network {
		fmt.Fprintln(w, "  network: on (allowed by your config)")
	} else {
		fmt.Fprintln(w, "  network: off (loopback only; --allow-network or `network = true` in your config.toml turns it on)")
	}
	if r.PIDNamespace && r.MountNamespace {
		fmt.Fprintln(w, "  processes: every process of a command ends with it, and with pincer (its own PID namespace)")
	} else {
		fmt.Fprintln(w, "  processes: background processes can OUTLIVE their command (no PID namespace)")
	}
	fmt.Fprintln(w, "  hidden from commands:")
	absent := 0
	for _, line := range sandbox.DescribeHidden(r) {
		if strings.HasSuffix(line, ": absent") && !verbose {
			absent++
			continue
		}
		fmt.Fprintf(w, "    %s\n", line)
	}
	if absent > 0 {
		fmt.Fprintf(w, "    and %d more paths, absent here (--verbose lists them)\n", absent)
	}
	fmt.Fprintf(w, "  protected paths in %s:\n", cwd)
	quarantined, none := 0, 0
	for _, line := range sandbox.DescribeProtected(cwd, p.ReadOnlyInWorkspace, r) {
		switch {
		case verbose:
		case strings.HasSuffix(line, ": "+sandbox.QuarantinedState):
			quarantined++
			continue
		case strings.HasSuffix(line, ": none"):
			none++
			continue
		}
		fmt.Fprintf(w, "    %s\n", line)
	}
	if quarantined+none > 0 {
		fmt.Fprintf(w, "    and %d more paths, absent here and guarded by quarantine: moved away if a command creates one (--verbose lists them)\n", quarantined+none)
	}
}
