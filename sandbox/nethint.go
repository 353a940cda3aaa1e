package sandbox

import (
	"strings"
)

// NetworkHintText is the line NetworkHint returns: how to let commands reach
// the network.
const NetworkHintText = "network is off in the sandbox: to allow it, run pincer with --allow-network or set `network = true` in the [sandbox] table of your own config.toml (not the project's)"

// networkFailures are output fragments (lower case) that mean a command could
// not reach the network: name resolution (glibc, musl, curl, git, Go, Python,
// Node, pip, npm, cargo) and connects to an unreachable network.
var networkFailures = []string{
	"could not resolve host",
	"temporary failure in name resolution",
	"name or service not known",
	"no address associated with hostname",
	"network is unreachable",
	"enetunreach",
	"getaddrinfo",
	"eai_again",
	"enotfound",
	"failed to resolve",
	"could not resolve proxy",
	"nodename nor servname",
	"dial tcp: lookup",
	"no such host",
	"name resolution failed",
	"unable to resolve host",
	"failed to establish a new connection",
	"couldn't resolve host",
}

// NetworkHint returns NetworkHintText when output (a failed command's, exit
// code exitCode) says it could not reach the network, and "" otherwise: a
// successful command, or a failure that names no network problem, gets no
// hint. A "connection refused" counts only when no loopback address is named
// (a test's own server on 127.0.0.1 refusing is not the sandbox's doing).
// It looks at the last 64 KiB of output.
func NetworkHint(output string, exitCode int) string {
	if exitCode == 0 {
		return ""
	}
	if len(output) > 64<<10 {
		output = output[len(output)-64<<10:]
	}
	low := strings.ToLower(output)
	for _, f := range networkFailures {
		if strings.Contains(low, f) {
			return NetworkHintText
		}
	}
	for _, line := range strings.Split(low, "\n") {
		if strings.Contains(line, "connection refused") && !mentionsLoopback(line) {
			return NetworkHintText
		}
	}
	return ""
}

// mentionsLoopback reports whether line names a loopback address.
func mentionsLoopback(line string) bool {
	for _, l := range []string{"localhost", "127.", "[::1]", "::1:", " ::1", "0.0.0.0"} {
		if strings.Contains(line, l) {
			return true
		}
	}
	return false
}
