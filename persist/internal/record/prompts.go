package record

import (
	"encoding/binary"
	"fmt"
	"strings"

	"pincer/persist"
)

// Key layout of the prompt history and drafts (persist.PromptStore):
//
//	h/<project>\x00<seq>   one prompt of a project's history (the text as
//	                       UTF-8), seq 8 bytes, from 1 in append order
//	d/<project>            the project's unsent draft (the text)
//
// A project is a path: it never holds a NUL byte (CheckProject), so
// "h/<project>\x00" is the prefix of exactly one project's prompts.
const (
	KindPrompt = 'h' // one prompt of a project's history
	KindDraft  = 'd' // a project's draft
)

// CheckProject refuses a project name the key layout cannot hold.
func CheckProject(project string) error {
	if project == "" || strings.IndexByte(project, 0) >= 0 {
		return fmt.Errorf("persist: invalid project %q (empty or holds a NUL byte)", project)
	}
	return nil
}

// PromptPrefix is the prefix of every prompt key of project.
func PromptPrefix(project string) []byte {
	k := make([]byte, 0, 3+len(project)+8)
	k = append(k, KindPrompt, '/')
	k = append(k, project...)
	return append(k, 0)
}

// PromptKey is the key of prompt seq of project.
func PromptKey(project string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(PromptPrefix(project), seq)
}

// DraftKey is the key of project's draft.
func DraftKey(project string) []byte { return SimpleKey(KindDraft, project) }

// KeepPrompt reports whether a prompt goes into the history at all: not
// blank, not longer than persist.MaxPromptBytes.
func KeepPrompt(text string) bool {
	return strings.TrimSpace(text) != "" && len(text) <= persist.MaxPromptBytes
}
