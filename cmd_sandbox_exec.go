package main

import (
	"io"

	"pincer/sandbox"
)

// sandboxExecCommand is the hidden subcommand pincer re-executes itself with to run
// one shell command under the OS sandbox (see sandbox/).
const sandboxExecCommand = sandbox.HelperCommand

// sandboxExecMain runs `pincer sandbox-exec --spec JSON -- PROGRAM ARGS...`: it
// confines itself as the spec says (rlimits; on Linux Landlock, read-only bind
// mounts, loopback in a fresh network namespace) and then executes PROGRAM in
// its place. It returns only when that fails (exit 125 for a sandbox that could
// not be set up, 126/127 for a program that cannot be run), with one line on
// stderr. pincer's Executor writes the spec; this is not meant to be typed.
func sandboxExecMain(args []string, stderr io.Writer) int {
	return sandbox.HelperMain(args, stderr)
}
