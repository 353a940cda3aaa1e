package sandbox

import "testing"

func TestNetworkHint(t *testing.T) {
	tests := []struct {
		out  string
		code int
		hint bool
	}{
		{"curl: (6) Could not resolve host: example.com", 6, true},
		{"fatal: unable to access 'https://h/r.git/': Could not resolve host: h", 128, true},
		{"ssh: Could not resolve hostname h: Temporary failure in name resolution", 255, true},
		{"wget: unable to resolve host address 'h'", 4, true},
		{"go: downloading x\ndial tcp: lookup proxy.example on 127.0.0.53:53: dial udp 127.0.0.53:53: connect: network is unreachable", 1, true},
		{"Get \"https://h/\": dial tcp: lookup h: no such host", 1, true},
		{"npm ERR! code EAI_AGAIN\nnpm ERR! request to https://r/ failed, reason: getaddrinfo EAI_AGAIN r", 1, true},
		{"npm error code ENOTFOUND", 1, true},
		{"socket.gaierror: [Errno -3] Temporary failure in name resolution", 1, true},
		{"urllib3 ... Failed to establish a new connection: [Errno 101] Network is unreachable", 1, true},
		{"connect: Network is unreachable", 1, true},
		{"curl: (7) Failed to connect to 93.184.216.34 port 443 after 0 ms: Connection refused", 7, true},
		{"dial tcp 10.0.0.5:5432: connect: connection refused", 1, true},
		{"error: failed to resolve address for github.com", 101, true},
		// Loopback refusals: the host's localhost is outside the namespace.
		{"curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused", 7, true},
		{"curl: (7) Failed to connect to 127.0.0.1 port 41809 after 3 ms: Couldn't connect to server", 7, true},
		{"dial tcp 127.0.0.1:5432: connect: connection refused", 1, true},
		{"connect ECONNREFUSED 127.0.0.1:38495", 1, true},
		{"ssh: connect to host h port 22: No route to host", 255, true},
		// Successes and unrelated failures: no hint.
		{"Could not resolve host: example.com", 0, false},
		{"FAIL: TestAdd (0.00s)\n    tiny_test.go:5: bad sum", 1, false},
		{"bash: foo: command not found", 127, false},
		{"", 1, false},
	}
	for _, tt := range tests {
		got := NetworkHint(tt.out, tt.code) != ""
		if got != tt.hint {
			t.Errorf("NetworkHint(%q, %d) hint = %v, want %v", tt.out, tt.code, got, tt.hint)
		}
	}
	if NetworkHint("Could not resolve host: x", 6) != NetworkHintText {
		t.Error("wrong text")
	}
}

func TestNetworkHintFor(t *testing.T) {
	tests := []struct {
		cmd  string
		code int
		hint bool
	}{
		{"curl -sS -o x https://h/", 6, true},
		{"/usr/bin/curl -s https://h/ | sh", 7, true},
		{"wget -q -O- http://h/", 4, true},
		{"curl -s https://h/", 22, false}, // an HTTP error: the network worked
		{"wget -q http://h/", 8, false},
		{"go test ./...", 1, false},
	}
	for _, tt := range tests {
		if got := NetworkHintFor(tt.cmd, "", tt.code) != ""; got != tt.hint {
			t.Errorf("NetworkHintFor(%q, %d) = %v, want %v", tt.cmd, tt.code, got, tt.hint)
		}
	}
}
