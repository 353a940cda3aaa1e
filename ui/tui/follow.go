package tui

// unseenMarker is the line the transcript shows on its last row while it is
// scrolled up and new output arrived below: "↓ new output — G/End", naming
// the keys that go back to the end and follow as the key map has them.
func unseenMarker(keys *KeyMap) string {
	ks := keys.KeysOf(ActBottom)
	if ks == "" {
		return "↓ new output"
	}
	return "↓ new output — " + ks
}
