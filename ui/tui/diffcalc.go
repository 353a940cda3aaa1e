package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pincer/core/message"
	"pincer/tools"
)

// maxPreviewBytes caps the file a would-be diff reads.
const maxPreviewBytes = 8 << 20

// messageLister finds a tool call's input in the stored transcript: the
// assistant message holding the call is saved before the call is decided.
type messageLister interface {
	ListMessages(ctx context.Context, sessionID string) ([]message.Message, error)
}

// toolCallInput returns the JSON input of a tool call of the session.
func toolCallInput(ctx context.Context, store messageLister, sessionID, toolCallID string) (string, error) {
	msgs, err := store.ListMessages(ctx, sessionID)
	if err != nil {
		return "", err
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if p.Type == message.PartToolCall && p.ToolCallID == toolCallID {
				return p.Input, nil
			}
		}
	}
	return "", fmt.Errorf("tool call %s is not in the transcript", toolCallID)
}

// wouldBeDiff returns the unified diff a pending Edit or Write would make to
// the workspace rooted at root, computed in memory from the file as it is now:
// Edit replaces old_string by new_string (every occurrence with replace_all,
// else exactly one), Write replaces the whole content. It returns "" and no
// error for other tools, and an error saying why the call would fail when it
// would (no match, several matches, missing file).
func wouldBeDiff(root, tool, input string) (string, error) {
	switch tool {
	case "Edit":
		var in tools.EditInput
		if err := json.Unmarshal([]byte(input), &in); err != nil {
			return "", fmt.Errorf("bad Edit input: %v", err)
		}
		abs, shown := resolvePath(root, in.FilePath)
		old, exists, err := readForPreview(abs)
		if err != nil {
			return "", err
		}
		if !exists {
			if in.OldString != "" {
				return "", fmt.Errorf("%s does not exist: the edit would fail", shown)
			}
			return tools.UnifiedDiff("/dev/null", "b/"+shown, "", in.NewString), nil
		}
		updated, err := previewEdit(old, in)
		if err != nil {
			return "", err
		}
		return tools.UnifiedDiff("a/"+shown, "b/"+shown, old, updated), nil
	case "Write":
		var in tools.WriteInput
		if err := json.Unmarshal([]byte(input), &in); err != nil {
			return "", fmt.Errorf("bad Write input: %v", err)
		}
		abs, shown := resolvePath(root, in.FilePath)
		old, exists, err := readForPreview(abs)
		if err != nil {
			return "", err
		}
		label := "a/" + shown
		if !exists {
			label = "/dev/null"
		}
		return tools.UnifiedDiff(label, "b/"+shown, old, in.Content), nil
	}
	return "", nil
}

// previewEdit applies an Edit to content in memory. A file with CRLF line
// ends is matched with the edit's strings converted to CRLF, as the tool does.
func previewEdit(content string, in tools.EditInput) (string, error) {
	oldS, newS := in.OldString, in.NewString
	if oldS == "" {
		return "", errors.New("old_string is empty but the file exists: the edit would fail")
	}
	if strings.Contains(content, "\r\n") && !strings.Contains(oldS, "\r") {
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(newS, "\n", "\r\n")
	}
	n := strings.Count(content, oldS)
	switch {
	case n == 0:
		return "", errors.New("old_string is not in the file: the edit would fail")
	case n > 1 && !in.ReplaceAll:
		return "", fmt.Errorf("old_string occurs %d times and replace_all is not set: the edit would fail", n)
	case in.ReplaceAll:
		return strings.ReplaceAll(content, oldS, newS), nil
	}
	return strings.Replace(content, oldS, newS, 1), nil
}

// resolvePath makes a tool's file_path absolute under root and returns it with
// the label diffs show (relative to root when inside it).
func resolvePath(root, p string) (abs, shown string) {
	abs = p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	abs = filepath.Clean(abs)
	shown = abs
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		shown = filepath.ToSlash(rel)
	}
	return abs, shown
}

// readForPreview reads a file for a would-be diff; exists is false when it
// does not exist.
func readForPreview(abs string) (content string, exists bool, err error) {
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if st.IsDir() {
		return "", true, fmt.Errorf("%s is a directory", abs)
	}
	if st.Size() > maxPreviewBytes {
		return "", true, fmt.Errorf("%s is %d MB: too large to preview", abs, st.Size()>>20)
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return "", true, err
	}
	return string(b), true, nil
}
