package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// spillMinBody is the fewest characters of output Spill keeps inline however
// small the cap, so that a tiny cap still shows something.
const spillMinBody = 64

// Spill keeps a long tool output out of the transcript. When output is longer
// than inlineCap characters (runes), it writes the whole output to
// dir/<toolCallID>.txt (mode 0600, dir created 0700) and returns in shown its
// beginning and end, a marker saying what was left out, and a line naming the
// file so the model can Read or Grep it; path is that file. Otherwise, or when
// inlineCap <= 0, it returns output unchanged and an empty path.
//
// shown is at most inlineCap characters when the cap leaves room for the marker
// and the file line (a few hundred characters); with a smaller cap, at least
// spillMinBody characters of output are kept and shown is longer than the cap.
// The cut prefers line ends: about two thirds of the room goes to the head, the
// rest to the tail. Characters outside [A-Za-z0-9._-] in toolCallID become "_";
// an empty toolCallID gets a unique name.
//
// On a write error, shown is still the cut output (without the file line), path
// is empty and err says what failed, so a caller can fall back to the cut view.
func Spill(dir string, toolCallID string, output string, inlineCap int) (shown string, path string, err error) {
	if inlineCap <= 0 || len(output) <= inlineCap || utf8.RuneCountInString(output) <= inlineCap {
		return output, "", nil
	}
	path, err = writeSpill(dir, toolCallID, output)
	total := utf8.RuneCountInString(output)
	lines := strings.Count(output, "\n")
	if !strings.HasSuffix(output, "\n") {
		lines++
	}
	var notice string
	if err == nil {
		notice = fmt.Sprintf("\n[The full output (%d characters, %d lines) is in %s: use Read with offset/limit, or Grep, on that file to see the rest.]", total, lines, path)
	}
	// Leave room for the widest marker this output can get, so the body fits.
	room := inlineCap - utf8.RuneCountInString(notice) - utf8.RuneCountInString(spillMarker(total, lines, lines+1))
	room = max(room, spillMinBody)
	head, tail := cutHeadTail(output, room)
	omitted := utf8.RuneCountInString(output[len(head) : len(output)-len(tail)])
	first, last := 0, 0 // the omitted lines, when both cuts are at line boundaries
	if (head == "" || strings.HasSuffix(head, "\n")) && output[len(output)-len(tail)-1] == '\n' {
		tailLines := strings.Count(tail, "\n")
		if tail != "" && !strings.HasSuffix(tail, "\n") {
			tailLines++
		}
		first, last = strings.Count(head, "\n")+1, lines-tailLines
	}
	shown = head + spillMarker(omitted, first, last) + tail + notice
	if err != nil {
		return shown, "", fmt.Errorf("saving the full output: %w", err)
	}
	return shown, path, nil
}

// spillMarker is the line put where the middle of an output was cut: it names
// the omitted lines when first > 0, else only counts characters.
func spillMarker(chars, first, last int) string {
	if first > 0 && last == first {
		return fmt.Sprintf("\n[... line %d omitted (%d characters) ...]\n", first, chars)
	}
	if first > 0 && last > first {
		return fmt.Sprintf("\n[... lines %d-%d omitted (%d characters) ...]\n", first, last, chars)
	}
	return fmt.Sprintf("\n[... %d characters omitted ...]\n", chars)
}

// writeSpill writes output to dir/<name>.txt atomically with mode 0600 and
// returns the file's path. dir's parent is created and opened as an os.Root,
// and dir is entered through it (Root.OpenRoot), so a dir swapped for a
// symlink out of its parent — the spill root is an added directory that
// sandboxed commands may write in — is refused instead of followed; the
// temporary file (created exclusively) and the rename stay in that root, and a
// symlink planted at the final name is replaced, never written through.
func writeSpill(dir, toolCallID, output string) (string, error) {
	parentDir, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parentDir, 0o700); err != nil {
		return "", err
	}
	parent, err := os.OpenRoot(parentDir)
	if err != nil {
		return "", err
	}
	defer parent.Close()
	if err := parent.Mkdir(base, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	r, err := parent.OpenRoot(base)
	if err != nil {
		return "", fmt.Errorf("spill directory %s: %w", dir, err)
	}
	defer r.Close()
	name := spillName(toolCallID)
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := "output-" + hex.EncodeToString(rnd[:]) + ".txt"
	if name != "" {
		tmp = name + "." + hex.EncodeToString(rnd[:]) + ".tmp"
	}
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(output)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Remove(tmp)
		return "", err
	}
	if name == "" {
		return spillAbs(filepath.Join(dir, tmp)), nil
	}
	if err := r.Rename(tmp, name+".txt"); err != nil {
		r.Remove(tmp)
		return "", err
	}
	return spillAbs(filepath.Join(dir, name+".txt")), nil
}

// spillName makes a tool call ID safe as a file name.
func spillName(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	s := string(b)
	if strings.Trim(s, ".") == "" {
		return "" // "", ".", ".." are no names
	}
	return s
}

// cutHeadTail returns a head and a tail of s with at most room runes together
// (room < rune count of s): two thirds for the head, cut back to a line end when
// one is in its second half, and the tail cut forward to a line start likewise.
func cutHeadTail(s string, room int) (head, tail string) {
	headRunes := room * 2 / 3
	tailRunes := room - headRunes
	head = s[:runeOffset(s, headRunes)]
	if i := strings.LastIndexByte(head, '\n'); i >= 0 && i+1 >= len(head)/2 {
		head = head[:i+1]
	}
	tail = s[runeOffsetFromEnd(s, tailRunes):]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		tail = tail[i+1:]
	}
	return head, tail
}

// runeOffset is the byte offset of the n-th rune of s (len(s) past the end).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// runeOffsetFromEnd is the byte offset where the last n runes of s start.
func runeOffsetFromEnd(s string, n int) int {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return i
}

// spillAbs returns p made absolute, or p when that fails.
func spillAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
