package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/core/app"
	"pincer/core/memory"
	"pincer/ui/termtext"
)

// memoryUsage is the usage of `pincer memory`.
const memoryUsage = `Usage:
  pincer memory list [--pending] [--kind memory|skill] [--json]   the candidates of this project and the user's
  pincer memory show ID [--json]            a candidate: its fields, what accepting it changes (a diff)
  pincer memory approve ID [--edit FILE]    accept it (with FILE's text instead): its file is written
  pincer memory reject ID [--reason TEXT]   reject it: nothing is written
  pincer memory add TEXT                    propose TEXT as a memory (a pending candidate)
  pincer memory forget NAME [--scope user|project]   propose removing the memory NAME
  pincer memory files [--json]              where memory lives, and the memory files
  pincer memory repair                      write what was accepted but not written (a crash)
Memory and learned skills are written only when a person accepts a candidate.
`

// memoryFlags are the flags of `pincer memory`'s subcommands.
type memoryFlags struct {
	pending            bool
	asJSON             bool
	kind, edit, reason string
	scope              string
}

// cmdMemory is `pincer memory SUBCOMMAND`: the memory and skill candidates
// and files of the project at the current directory, through app.Backend
// (OpenMemoryBackend: the store and core/memory's Manager).
func cmdMemory(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f memoryFlags
	fs.BoolVar(&f.pending, "pending", false, "list: only pending candidates")
	fs.BoolVar(&f.asJSON, "json", false, "print JSON")
	fs.StringVar(&f.kind, "kind", "", "list: memory or skill")
	fs.StringVar(&f.edit, "edit", "", "approve: the file whose text is written instead")
	fs.StringVar(&f.reason, "reason", "", "reject: why")
	fs.StringVar(&f.scope, "scope", "", "forget: user or project")
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) || (err == nil && (len(pos) == 0 || pos[0] == "help")) {
		fmt.Fprint(stdout, memoryUsage)
		return 0, nil
	}
	if err != nil {
		return 0, usagef("memory: %v", err)
	}
	if err := checkMemoryArgs(pos, f); err != nil {
		return 0, err
	}
	b, err := app.OpenMemoryBackend()
	if err != nil {
		return 1, err
	}
	defer app.CloseMemoryBackend(b)
	return runMemory(context.Background(), b, pos, f, stdout)
}

// checkMemoryArgs refuses a subcommand with the wrong arguments.
func checkMemoryArgs(pos []string, f memoryFlags) error {
	want := map[string]int{"list": 1, "show": 2, "approve": 2, "reject": 2, "forget": 2, "files": 1, "repair": 1}
	switch n, ok := want[pos[0]]; {
	case pos[0] == "add" && len(pos) >= 2:
	case !ok:
		return usagef("memory: unknown subcommand %q (see pincer memory help)", pos[0])
	case len(pos) != n:
		return usagef("memory %s: wrong arguments (see pincer memory help)", pos[0])
	}
	if f.kind != "" && f.kind != memory.KindMemory && f.kind != memory.KindSkill {
		return usagef("memory list --kind %q: memory or skill", f.kind)
	}
	if f.scope != "" && f.scope != memory.ScopeUser && f.scope != memory.ScopeProject {
		return usagef("memory forget --scope %q: user or project", f.scope)
	}
	return nil
}

// runMemory runs one subcommand on b.
func runMemory(ctx context.Context, b *app.Backend, pos []string, f memoryFlags, out io.Writer) (int, error) {
	switch pos[0] {
	case "list":
		filter := memory.Filter{Kind: f.kind}
		if f.pending {
			filter.Status = memory.StatusPending
		}
		cs, err := b.ProjectCandidates(ctx, filter)
		if err != nil {
			return 1, err
		}
		return printCandidates(out, cs, f.asJSON)
	case "show":
		return showCandidate(ctx, b, pos[1], f.asJSON, out)
	case "approve", "reject":
		return decideCandidate(ctx, b, pos[0], pos[1], f, out)
	case "add":
		c, err := b.ProposeMemory(ctx, "", strings.Join(pos[1:], " "))
		if err != nil {
			return 1, err
		}
		fmt.Fprintf(out, "proposed %s: %s memory %q (%s); approve it with: pincer memory approve %s\n", c.ID, c.Type, termtext.Line(c.Name), c.Target, c.ID)
		return 0, nil
	case "forget":
		return forgetMemory(ctx, b, pos[1], f.scope, out)
	case "files":
		return memoryFiles(ctx, b, f.asJSON, out)
	}
	done, err := b.RepairMemory(ctx)
	for _, c := range done {
		fmt.Fprintf(out, "wrote %s (candidate %s)\n", c.Target, c.ID)
	}
	if err != nil {
		return 1, err
	}
	if len(done) == 0 {
		fmt.Fprintln(out, "nothing to repair: every accepted candidate is written")
	}
	return 0, nil
}

// printCandidates lists candidates, one line each, or as a JSON array.
func printCandidates(out io.Writer, cs []memory.Candidate, asJSON bool) (int, error) {
	if asJSON {
		if cs == nil {
			cs = []memory.Candidate{}
		}
		enc := json.NewEncoder(termtext.JSON(out))
		enc.SetIndent("", "  ")
		return 0, enc.Encode(cs)
	}
	if len(cs) == 0 {
		fmt.Fprintln(out, "no candidates")
	}
	for _, c := range cs {
		fmt.Fprintf(out, "%s  %-8s %-6s %-6s %-7s %s — %s\n", c.ID, c.Status, c.Kind, c.Op, c.Scope,
			termtext.Line(c.Name), termtext.Line(c.Description))
	}
	return 0, nil
}

// showCandidate prints candidate id and the diff accepting it makes.
func showCandidate(ctx context.Context, b *app.Backend, id string, asJSON bool, out io.Writer) (int, error) {
	c, err := b.Candidate(ctx, id)
	if err != nil {
		return 1, fmt.Errorf("candidate %s: %w", id, err)
	}
	if asJSON {
		return 0, json.NewEncoder(termtext.JSON(out)).Encode(c)
	}
	fmt.Fprintf(out, "%s: %s %s %q (%s, %s)\n", c.ID, c.Op, c.Kind, termtext.Line(c.Name), c.Scope, c.Status)
	fmt.Fprintf(out, "target: %s\norigin: %s, session %s turn %d\n", c.Target, c.Origin, c.SessionID, c.Turn)
	diff, err := b.CandidateDiff(ctx, id)
	if err != nil {
		return 1, err
	}
	fmt.Fprint(termtext.NewWriter(out), diff)
	return 0, nil
}

// decideCandidate approves (with --edit FILE's text) or rejects id.
func decideCandidate(ctx context.Context, b *app.Backend, verb, id string, f memoryFlags, out io.Writer) (int, error) {
	d := memory.Decision{Action: memory.Reject, Reason: f.reason, By: "cli"}
	if verb == "approve" {
		d.Action = memory.Accept
		if f.edit != "" {
			text, err := os.ReadFile(f.edit)
			if err != nil {
				return 1, err
			}
			d.Action, d.Text = memory.AcceptEdited, string(text)
		}
	}
	c, err := b.DecideCandidate(ctx, "", id, d)
	if err != nil {
		return 1, fmt.Errorf("candidate %s: %w", id, err)
	}
	if c.Status == memory.StatusRejected {
		fmt.Fprintf(out, "rejected %s: nothing written\n", c.ID)
		return 0, nil
	}
	verbDone := "wrote"
	if c.Op == memory.OpRemove {
		verbDone = "removed"
	}
	fmt.Fprintf(out, "accepted %s: %s %s\n", c.ID, verbDone, c.Target)
	return 0, nil
}

// forgetMemory proposes removing memory name: of scope, or ("") the
// project's memory of that name, else the user's.
func forgetMemory(ctx context.Context, b *app.Backend, name, scope string, out io.Writer) (int, error) {
	scopes := []string{scope}
	if scope == "" {
		scopes = []string{memory.ScopeProject, memory.ScopeUser}
	}
	var err error
	for _, sc := range scopes {
		var c memory.Candidate
		if c, err = b.ProposeForget(ctx, "", sc, name); err == nil {
			fmt.Fprintf(out, "proposed %s: remove %s; approve it with: pincer memory approve %s\n", c.ID, c.Target, c.ID)
			return 0, nil
		}
	}
	return 1, err
}

// memoryFiles prints where memory lives and the memory files.
func memoryFiles(ctx context.Context, b *app.Backend, asJSON bool, out io.Writer) (int, error) {
	paths, err := b.MemoryPaths()
	if err != nil {
		return 1, err
	}
	entries, err := b.Memories(ctx)
	if asJSON {
		type file struct {
			Scope, Path, Type, Name, Description, Error string `json:",omitempty"`
		}
		res := struct {
			Paths memory.Paths
			Files []file
		}{Paths: paths, Files: []file{}}
		for _, e := range entries {
			fl := file{Scope: e.Scope, Path: e.Path, Type: e.File.Type, Name: e.File.Name, Description: e.File.Description}
			if e.Err != nil {
				fl.Error = e.Err.Error()
			}
			res.Files = append(res.Files, fl)
		}
		enc := json.NewEncoder(termtext.JSON(out))
		enc.SetIndent("", "  ")
		return 0, errors.Join(err, enc.Encode(res))
	}
	fmt.Fprintf(out, "USER.md:   %s\nuser memory files: %s\nproject MEMORY.md: %s\nuser skills: %s\nproject skills: %s\n",
		paths.UserIndex, paths.UserDir, paths.ProjectIndex(), paths.UserSkills, paths.ProjectSkills)
	for _, e := range entries {
		if e.Err != nil {
			fmt.Fprintf(out, "%-7s %s: %s\n", e.Scope, e.Path, termtext.Line(e.Err.Error()))
			continue
		}
		fmt.Fprintf(out, "%-7s %s: %s %q — %s\n", e.Scope, e.Path, e.File.Type, termtext.Line(e.File.Name), termtext.Line(e.File.Description))
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}
