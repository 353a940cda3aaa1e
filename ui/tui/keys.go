package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Action names what a key does. Action names are what config overrides use.
type Action string

// The workbench's actions.
const (
	ActQuit         Action = "quit"
	ActCancel       Action = "cancel"
	ActFocusNext    Action = "focus.next"
	ActFocusPrev    Action = "focus.prev"
	ActFocusTrans   Action = "focus.transcript"
	ActFocusTime    Action = "focus.timeline"
	ActFocusAppr    Action = "focus.approvals"
	ActFocusDiff    Action = "focus.diff"
	ActFocusInput   Action = "focus.input"
	ActHelpAnywhere Action = "help.anywhere"
	ActMouse        Action = "mouse"
	ActNotices      Action = "notices"
	ActLayout       Action = "layout.cycle"
	ActSend         Action = "send"
	ActNewline      Action = "newline"
	ActZoom         Action = "zoom"
	ActHelp         Action = "help"
	ActDown         Action = "down"
	ActUp           Action = "up"
	ActTop          Action = "top"
	ActBottom       Action = "bottom"
	ActPageUp       Action = "page.up"
	ActPageDown     Action = "page.down"
	ActToggle       Action = "toggle"
	ActAllowOnce    Action = "approve.once"
	ActAllowSession Action = "approve.session"
	ActAllowAlways  Action = "approve.always"
	ActDeny         Action = "deny"
	ActDenyReason   Action = "deny.reason"
	ActEditCand     Action = "candidate.edit"
	ActMode         Action = "mode.cycle"
	ActModeInput    Action = "mode.cycle.input"
	ActSessions     Action = "sessions"
	ActOpenSession  Action = "session.open"
	ActResume       Action = "session.resume"
	ActDelete       Action = "session.delete"
	ActFilter       Action = "session.filter"
	// The input box's habits (history_keys.go, retry.go).
	ActHistoryPrev   Action = "history.prev"
	ActHistoryNext   Action = "history.next"
	ActHistorySearch Action = "history.search"
	ActScrollUp      Action = "transcript.page.up"
	ActScrollDown    Action = "transcript.page.down"
	ActRetry         Action = "retry"
	ActWrap          Action = "diff.wrap"
	ActLeft          Action = "diff.left"
	ActRight         Action = "diff.right"
	// The timeline's subagent calls (children_keys.go).
	ActSubToggle Action = "subagent.toggle"
	ActSubOpen   Action = "subagent.open"
	ActSubCancel Action = "subagent.cancel"
	// The sessions browser's subagent sessions (browser/tree.go).
	ActSessionKids Action = "session.children"
	// Tabs: several live sessions side by side (tabs.go, split.go).
	ActTabNew   Action = "tab.new"
	ActTabClose Action = "tab.close"
	ActTabNext  Action = "tab.next"
	ActTabPrev  Action = "tab.prev"
	ActSplit    Action = "tab.split"
	// Time travel through a past session's log (timetravel_keys.go).
	ActTimeTravel      Action = "session.timetravel"
	ActTravelBack      Action = "travel.back"
	ActTravelForward   Action = "travel.forward"
	ActTravelTurnBack  Action = "travel.turn.back"
	ActTravelTurnNext  Action = "travel.turn.next"
	ActTravelStart     Action = "travel.start"
	ActTravelEnd       Action = "travel.end"
	ActTravelDiffScope Action = "travel.diff"
	ActTravelRewind    Action = "travel.rewind"
)

// Context says where a binding applies.
type Context string

// Key contexts, from the widest to the narrowest.
const (
	CtxGlobal     Context = "global"     // anywhere
	CtxInput      Context = "input"      // the input box has focus
	CtxPanes      Context = "panes"      // any pane but the input box has focus
	CtxList       Context = "list"       // a scrollable pane has focus
	CtxTranscript Context = "transcript" // the transcript has focus
	CtxTimeline   Context = "timeline"   // the timeline has focus
	CtxApprovals  Context = "approvals"  // the approval queue has focus
	CtxDiff       Context = "diff"       // the diff pane has focus
	CtxSessions   Context = "sessions"   // the sessions browser is open
	CtxTravel     Context = "travel"     // a session shown read-only, from any pane (the input box when empty)
)

// Binding is one row of the key map: an action, where it applies, its keys and
// its help text. Bar marks the bindings the help bar shows.
type Binding struct {
	Action  Action
	Context Context
	Keys    []Key
	Help    string
	Bar     bool
}

// KeyMap is the single table of key bindings. It drives key dispatch, the help
// bar, the help screen and config overrides. It is not safe for concurrent
// mutation; override keys before the workbench runs.
type KeyMap struct {
	bindings []Binding
}

// DefaultKeyMap returns the workbench's default bindings.
func DefaultKeyMap() *KeyMap {
	b := func(a Action, c Context, keys, help string, bar bool) Binding {
		ks, err := ParseKeys(keys)
		if err != nil {
			panic(err) // the default table is a constant
		}
		return Binding{Action: a, Context: c, Keys: ks, Help: help, Bar: bar}
	}
	return &KeyMap{bindings: []Binding{
		b(ActSend, CtxInput, "enter", "send", true),
		b(ActNewline, CtxInput, "shift+enter alt+enter ctrl+j", "new line", true),
		b(ActModeInput, CtxInput, "shift+tab", "next permission mode", true),
		b(ActHistoryPrev, CtxInput, "up", "previous prompt (on the first line)", false),
		b(ActHistoryNext, CtxInput, "down", "next prompt (on the last line)", false),
		b(ActHistorySearch, CtxInput, "ctrl+r", "search the prompt history", false),
		b(ActScrollUp, CtxInput, "pgup", "scroll the transcript up a page", false),
		b(ActScrollDown, CtxInput, "pgdn", "scroll the transcript down a page", false),
		b(ActCancel, CtxGlobal, "esc", "cancel the running turn (first it unzooms a pane or closes a view)", true),
		b(ActQuit, CtxGlobal, "ctrl+c", "quit (twice within 2 s; once cancels the running turn)", true),
		b(ActFocusNext, CtxGlobal, "tab", "focus the next pane", true),
		b(ActFocusPrev, CtxGlobal, "shift+tab", "focus the previous pane", false),
		b(ActFocusTrans, CtxGlobal, "alt+1", "focus the transcript", false),
		b(ActFocusTime, CtxGlobal, "alt+2", "focus the timeline", false),
		b(ActFocusAppr, CtxGlobal, "alt+3", "focus the approvals", false),
		b(ActFocusDiff, CtxGlobal, "alt+4", "focus the diff", false),
		b(ActFocusInput, CtxGlobal, "alt+0", "focus the input box", false),
		b(ActHelpAnywhere, CtxGlobal, "f1", "help", true),
		b(ActMouse, CtxGlobal, "f2", "mouse capture on or off (off: select text)", false),
		b(ActNotices, CtxGlobal, "f3", "recent notices (output, warnings, errors)", false),
		b(ActLayout, CtxGlobal, "f4", "next layout: auto, columns, grid, stacked", false),
		b(ActMode, CtxGlobal, "ctrl+t", "next permission mode", false),
		b(ActSessions, CtxGlobal, "ctrl+o", "sessions browser", true),
		b(ActRetry, CtxGlobal, "f5", "retry the last failed turn (sends its prompt again)", false),
		b(ActTabNew, CtxGlobal, "alt+t", "new tab: another live session (/tab new NAME: in git worktree NAME)", false),
		b(ActTabNext, CtxGlobal, "alt+n", "next tab (/tab N: tab N)", false),
		b(ActTabPrev, CtxGlobal, "alt+p", "previous tab", false),
		b(ActTabClose, CtxGlobal, "alt+w", "close the tab (its session stays in the store)", false),
		b(ActSplit, CtxGlobal, "alt+s", "split view: the next tab's transcript beside this one's, and back", false),
		b(ActAllowOnce, CtxApprovals, "y", "allow once", true),
		b(ActAllowSession, CtxApprovals, "s", "allow for this session", true),
		b(ActAllowAlways, CtxApprovals, "a", "always allow (a rule for exactly this request)", true),
		b(ActDeny, CtxApprovals, "n", "deny", true),
		b(ActDenyReason, CtxApprovals, "N", "deny with a reason for the model", true),
		b(ActEditCand, CtxApprovals, "e", "edit a memory or skill candidate, then accept it (Ctrl+S)", false),
		b(ActToggle, CtxTranscript, "enter space", "expand or collapse the selected entry", true),
		b(ActSubToggle, CtxTimeline, "enter space", "show or hide a subagent's steps under its Agent call", true),
		b(ActSubOpen, CtxTimeline, "o", "open a subagent's transcript read-only (Esc comes back)", true),
		b(ActSubCancel, CtxTimeline, "x", "cancel the selected running subagent (background ones too)", true),
		b(ActDown, CtxList, "j down", "down", true),
		b(ActUp, CtxList, "k up", "up", true),
		b(ActTop, CtxList, "g home", "first", false),
		b(ActBottom, CtxList, "G end", "last (and follow)", false),
		b(ActPageUp, CtxList, "pgup", "page up", false),
		b(ActPageDown, CtxList, "pgdn", "page down", false),
		b(ActWrap, CtxDiff, "w", "wrap long lines on or off", true),
		b(ActLeft, CtxDiff, "h left", "scroll left (wrapping off)", false),
		b(ActRight, CtxDiff, "l right", "scroll right (wrapping off)", false),
		b(ActZoom, CtxPanes, "z", "zoom the pane to full screen and back", true),
		b(ActHelp, CtxPanes, "?", "help", false),
		b(ActOpenSession, CtxSessions, "enter", "open read-only (Esc comes back)", true),
		b(ActResume, CtxSessions, "ctrl+r r", "resume it here (r after Esc)", true),
		b(ActDelete, CtxSessions, "ctrl+d d", "delete it, asks first (d after Esc)", true),
		b(ActFilter, CtxSessions, "/", "back to the filter (after Esc; typing filters)", false),
		b(ActSessionKids, CtxSessions, "right left", "show or hide a session's subagents under it", true),
		b(ActTimeTravel, CtxSessions, "ctrl+b t", "time travel: open it read-only and scrub through its log (t after Esc)", true),
		b(ActTravelBack, CtxTravel, "[", "one event back", true),
		b(ActTravelForward, CtxTravel, "]", "one event forward", true),
		b(ActTravelTurnBack, CtxTravel, "{", "to the start of this turn, then of the one before", true),
		b(ActTravelTurnNext, CtxTravel, "}", "to the start of the next turn", true),
		b(ActTravelStart, CtxTravel, "<", "to the session's start", false),
		b(ActTravelEnd, CtxTravel, ">", "to the log's end (and follow it)", false),
		b(ActTravelDiffScope, CtxTravel, "d", "diff pane: workspace since the start, this turn's, this call's, as shown live", true),
		b(ActTravelRewind, CtxTravel, "R", "rewind the session to before this step's turn (/rewind)", true),
	}}
}

// Bindings returns a copy of the table, in its order.
func (k *KeyMap) Bindings() []Binding {
	out := make([]Binding, len(k.bindings))
	for i, b := range k.bindings {
		b.Keys = append([]Key(nil), b.Keys...)
		out[i] = b
	}
	return out
}

// Override replaces the keys of an action with keys (one or more key names,
// separated by spaces or commas: "ctrl+j alt+enter"). It fails on an unknown
// action, a key it cannot parse, or a key another action already uses where
// both could apply.
func (k *KeyMap) Override(action, keys string) error {
	idx := -1
	for i, b := range k.bindings {
		if string(b.Action) == action {
			idx = i
		}
	}
	if idx < 0 {
		return fmt.Errorf("keys: unknown action %q", action)
	}
	ks, err := ParseKeys(keys)
	if err != nil {
		return err
	}
	if len(ks) == 0 {
		return fmt.Errorf("keys: no key given for %q", action)
	}
	if err := k.conflict(idx, ks); err != nil {
		return err
	}
	k.bindings[idx].Keys = ks
	return nil
}

// conflict reports a key of ks that another binding where binding idx could
// apply already uses.
func (k *KeyMap) conflict(idx int, ks []Key) error {
	ctx := k.bindings[idx].Context
	for i, b := range k.bindings {
		if i == idx || !overlaps(ctx, b.Context) {
			continue
		}
		for _, nk := range ks {
			for _, ok := range b.Keys {
				if nk == ok {
					return fmt.Errorf("keys: %s is already bound to %q", nk, b.Action)
				}
			}
		}
	}
	return nil
}

// overlaps reports whether bindings of two contexts can see the same key. The
// sessions browser sees only its own keys and the list keys.
func overlaps(a, b Context) bool {
	if a == b || a == CtxGlobal || b == CtxGlobal {
		return true
	}
	if a == CtxSessions || b == CtxSessions {
		return a == CtxList || b == CtxList
	}
	pane := func(c Context) bool { return c != CtxInput }
	// The transcript's and the timeline's own keys are never live at once.
	if (a == CtxTranscript && b == CtxTimeline) || (a == CtxTimeline && b == CtxTranscript) {
		return false
	}
	return pane(a) && pane(b)
}

// Lookup returns the action bound to ev in the first of contexts that has one.
func (k *KeyMap) Lookup(contexts []Context, ev *tcell.EventKey) (Action, bool) {
	for _, c := range contexts {
		for _, b := range k.bindings {
			if b.Context != c {
				continue
			}
			for _, key := range b.Keys {
				if key.Matches(ev) {
					return b.Action, true
				}
			}
		}
	}
	return "", false
}

// KeysOf returns the keys of an action ("" when unbound), as the help shows them.
func (k *KeyMap) KeysOf(a Action) string {
	for _, b := range k.bindings {
		if b.Action == a {
			names := make([]string, len(b.Keys))
			for i, key := range b.Keys {
				names[i] = key.String()
			}
			return strings.Join(names, "/")
		}
	}
	return ""
}

// HelpBar returns "key help" pairs for the bar bindings of contexts, in table
// order, first key only.
func (k *KeyMap) HelpBar(contexts []Context) []string {
	var out []string
	for _, b := range k.barBindings(contexts) {
		out = append(out, b.barItem())
	}
	return out
}

// barBindings are the key bar's bindings of contexts, in the table's order.
func (k *KeyMap) barBindings(contexts []Context) []Binding {
	var out []Binding
	for _, b := range k.bindings {
		if !b.Bar || len(b.Keys) == 0 {
			continue
		}
		for _, c := range contexts {
			if b.Context == c {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// barItem is b in the key bar: its first key and its help up to " (".
func (b Binding) barItem() string {
	help, _, _ := strings.Cut(b.Help, " (")
	return b.Keys[0].String() + " " + help
}

// inputShadows is what the help adds to a binding of Anywhere whose key the
// input box binds to something else (Shift+Tab: the previous pane, but the
// next permission mode in the box): " (not in the input box)"; "" otherwise.
func (k *KeyMap) inputShadows(b Binding) string {
	if b.Context != CtxGlobal {
		return ""
	}
	for _, in := range k.bindings {
		if in.Context != CtxInput {
			continue
		}
		for _, x := range in.Keys {
			for _, y := range b.Keys {
				if x.String() == y.String() {
					return " (not in the input box)"
				}
			}
		}
	}
	return ""
}

// HelpLines returns the help screen: every binding, grouped by context.
func (k *KeyMap) HelpLines() []string {
	order := []Context{CtxGlobal, CtxInput, CtxPanes, CtxList, CtxTranscript, CtxTimeline, CtxApprovals, CtxDiff, CtxSessions, CtxTravel}
	titles := map[Context]string{CtxGlobal: "Anywhere", CtxInput: "Input box", CtxPanes: "Panes",
		CtxList: "Lists and scrolling panes", CtxTranscript: "Transcript", CtxTimeline: "Timeline", CtxApprovals: "Approvals (also from an empty input box while a request waits)", CtxDiff: "Diff",
		CtxSessions: "Sessions browser (Ctrl+O)", CtxTravel: "Time travel (a session opened read-only: Ctrl+B in the browser, or Enter there)"}
	var out []string
	for _, c := range order {
		out = append(out, titles[c])
		for _, b := range k.bindings {
			if b.Context == c {
				out = append(out, fmt.Sprintf("  %-24s %s%s", k.KeysOf(b.Action), b.Help, k.inputShadows(b)))
			}
		}
		out = append(out, "")
	}
	return out
}
