package tui

// inputState is what the input box keeps beyond its text (UIState.in): the
// prompt history and its Ctrl+R search, the large pastes shown as
// placeholders, and whether the stored draft was read (until then quitting
// must not overwrite it). Event loop only.
type inputState struct {
	history     promptHistory
	search      *historySearch // open Ctrl+R search, nil when closed
	pastes      []pastedText   // large pastes in the box, by placeholder
	habitsReady bool           // the stored history and draft were read
	draftStored bool           // a stored draft was put in the box and is still stored
	project     string         // the project they belong to (the workspace root)
	promptSent  bool           // Options.Prompt was sent
	// placeholderShown is the input box's placeholder as last set
	// (setInputPlaceholder).
	placeholderShown string
}
