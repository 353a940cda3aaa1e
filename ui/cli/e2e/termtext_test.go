package e2e

// The red team's terminal attack (round 2, MEDIUM): the model writes escape
// sequences into its text, its tool calls' input and the files its tools read;
// none of them may reach the terminal from `pincer -p`, `sessions show`,
// `sessions list`, `audit` (text or JSON), nor from stderr.

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pincer/core/provider/openai/openaitest"
)

// evil holds each form a terminal would act on: OSC 0/2 titles, OSC 52
// clipboard, OSC 8 link, CSI 6n and DA queries, bracketed-paste markers, DCS,
// the 8-bit CSI and OSC, a CR overwrite.
const evil = "T\x1b]0;pwned\x07\x1b]2;pwned\x1b\\\x1b]52;c;cm0gLXJmIH4=\x07\x1b]8;;http://x\x1b\\L\x1b]8;;\x1b\\" +
	"\x1b[6n\x1b[c\x1b[200~P\x1b[201~\x1bPq\x1b\\\u009b6n\u009d0;t\u009csafe\rX"

// jsonString is s as a JSON string's contents (what a scripted reply's Args hold).
func jsonString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			b.WriteString(`\u00` + "0123456789abcdef"[r>>4:r>>4+1] + "0123456789abcdef"[r&15:r&15+1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// terminalControl is the first byte offset in out of something a terminal acts
// on (ESC, another C0 control but LF and TAB, DEL, a C1 control as a rune or a
// lone byte), or -1.
func terminalControl(out string) int {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || (r == utf8.RuneError && n == 1 && out[i] <= 0x9f) {
			return i
		}
		i += n
	}
	return -1
}

func TestNoEscapeReachesTheTerminal(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "c1", Name: "Read", Args: `{"file_path":"evil.txt"}`},
			{ID: "c2", Name: "Bash", Args: `{"command":"echo ` + jsonString(evil) + `"}`},
		}},
		openaitest.Reply{Text: "done " + evil + " end"},
	)
	e.write("evil.txt", "file "+evil+"\n")
	check := func(what, out string) {
		t.Helper()
		if i := terminalControl(out); i >= 0 {
			t.Errorf("%s: a terminal control at byte %d: %q", what, i, out[max(0, i-20):min(len(out), i+20)])
		}
	}
	out, stderr, code := e.run("-p", "read evil.txt", "--base-url", e.fake.BaseURL())
	if code != 0 || !strings.Contains(out, "done T") || !strings.Contains(out, " end") {
		t.Fatalf("pincer -p: exit %d, out %q, stderr %q", code, out, stderr)
	}
	check("pincer -p stdout", out)
	check("pincer -p stderr", stderr)

	out, _, _ = e.run("sessions", "--json")
	check("sessions --json", out)
	id := out[strings.Index(out, `"id":"`)+6:]
	id = id[:strings.IndexByte(id, '"')]
	for _, args := range [][]string{{"sessions"}, {"sessions", "show", id}, {"sessions", "show", id, "--json"}, {"audit"}, {"audit", "--json"}} {
		out, stderr, code := e.run(args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		check(strings.Join(args, " "), out)
		check(strings.Join(args, " ")+" stderr", stderr)
		if args[0] == "audit" && !strings.Contains(out, "Bash") {
			t.Errorf("%v: no Bash decision:\n%s", args, out)
		}
		if len(args) == 3 && !strings.Contains(out, "file T") {
			t.Errorf("%v: the Read tool's output is missing:\n%s", args, out)
		}
	}
	out, _, _ = e.run(e.runArgs("--continue", "--output-format", "stream-json", "again")...)
	check("run stream-json", out)
}
