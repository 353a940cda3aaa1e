package tui

// helpTopicText is the help screen's topic while it shows lines computed off
// the event loop (/permissions, /status, /config): topicText.
const helpTopicText = "text"

// showTopic opens the help screen on lines (Esc closes it, j/k scroll).
// Event loop only: a command computing them off it posts this.
func (w *Workbench) showTopic(lines []string) {
	w.topicText = lines
	w.helpOpen, w.helpOffset, w.helpTopic = true, 0, helpTopicText
}
