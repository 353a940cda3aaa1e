package sandbox

import (
	"strings"
)

// NetworkHintText is the line NetworkHint returns: how to let commands reach
// the network.
const NetworkHintText = "if this needs the network (or a server on this machine's localhost, which the sandbox has its own of): network is off in the sandbox; to allow it, run pincer with --allow-network or set `network = true` in the [sandbox] table of your own config.toml (not the project's)"

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
	"couldn't connect to server",
	"econnrefused",
	"connection refused",
	"no route to host",
	"ehostunreach",
	"failed to connect to",
	"unable to connect to",
	"network unreachable",
}

// NetworkHint returns NetworkHintText when output (a failed command's, exit
// code exitCode) says it could not reach the network — name resolution, an
// unreachable network, a refused connection (with the network off, loopback
// refusals count too: the host's localhost services are outside the
// sandbox's network namespace) — and "" otherwise: a successful command, or a
// failure that names no network problem, gets no hint. It looks at the last
// 64 KiB of output.
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
	return ""
}

// NetworkHintFor is NetworkHint that also knows the shell command, for
// programs told to be quiet: curl -s exiting 5, 6, 7 or 28 (proxy or host not
// resolved, connection failed, timed out) and wget -q exiting 4 (network
// failure) print nothing that says so.
func NetworkHintFor(command, output string, exitCode int) string {
	if h := NetworkHint(output, exitCode); h != "" {
		return h
	}
	words := strings.FieldsFunc(command, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '|' || r == '&' || r == '(' || r == ')' || r == '\'' || r == '"'
	})
	for _, w := range words {
		switch w = w[strings.LastIndexByte(w, '/')+1:]; {
		case w == "curl" && (exitCode == 5 || exitCode == 6 || exitCode == 7 || exitCode == 28):
			return NetworkHintText
		case w == "wget" && exitCode == 4:
			return NetworkHintText
		}
	}
	return ""
}
