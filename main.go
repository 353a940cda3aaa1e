// Command pincer is a coding agent for the terminal (see ui/cli for its commands).
package main

import (
	"os"

	"pincer/sandbox"
	"pincer/ui/cli"
)

func main() {
	args := os.Args[1:]
	switch {
	case len(args) > 0 && args[0] == sandbox.HelperCommand: // pincer re-executes itself to confine one command
		os.Exit(sandbox.HelperMain(args[1:], os.Stderr))
	case len(args) > 0 && args[0] == cli.StoreDaemonCommand: // the store's owner process, started on demand
		os.Exit(cli.StoreDaemon(args[1:], os.Stderr))
	}
	os.Exit(cli.Main(args, os.Stdin, os.Stdout, os.Stderr))
}
