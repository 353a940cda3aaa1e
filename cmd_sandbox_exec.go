package main

import (
	"fmt"
	"io"
)

// sandboxExecCommand is the hidden subcommand pincer re-executes itself with to run
// one shell command under the OS sandbox (see sandbox/).
const sandboxExecCommand = "sandbox-exec"

// sandboxExecMain runs `pincer sandbox-exec -- ...`. Replaced by the sandbox work.
func sandboxExecMain(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "pincer: sandbox-exec is not available in this build")
	return 1
}
