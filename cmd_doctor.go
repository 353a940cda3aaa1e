package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"pincer/sandbox"
)

// cmdDoctor is `pincer doctor`: what this machine lets pincer enforce and use — the
// OS sandbox's capabilities (Landlock, namespaces, rlimits), ripgrep, the store's
// location, and which API-key variables are set (never their values).
func cmdDoctor(stdout io.Writer) int {
	fmt.Fprintln(stdout, "pincer", version)
	fmt.Fprintln(stdout, "\nSandbox:")
	fmt.Fprint(stdout, indent(strings.TrimRight(sandbox.Probe().String(), "\n"), "  ")+"\n")
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
	fmt.Fprintln(stdout, "\nStore:")
	if dir, err := storeDir(); err == nil {
		fmt.Fprintf(stdout, "  %s\n", dir)
	} else {
		fmt.Fprintf(stdout, "  unknown: %v\n", err)
	}
	fmt.Fprintln(stdout, "\nAPI keys in the environment:")
	any := false
	for _, k := range []string{"PINCER_API_KEY", "OPENAI_API_KEY", "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY"} {
		if os.Getenv(k) != "" {
			fmt.Fprintf(stdout, "  %s is set\n", k)
			any = true
		}
	}
	if !any {
		fmt.Fprintln(stdout, "  none (pincer run needs one, except for ollama/ and lmstudio/ models)")
	}
	return 0
}
