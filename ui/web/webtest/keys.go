package webtest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Enter presses Enter in the focused element the way a keyboard does: one
// keyDown that carries the text "\r", then a keyUp (as Puppeteer's
// keyboard.press sends it). chromedp.KeyEvent("\r") instead sends the text
// as a separate char event, which Chromium does not always drop when the
// page called preventDefault on the keydown, so a page that sends on Enter
// could find a stray newline in its box.
func Enter() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		key := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter",
			WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r"}
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, key); err != nil {
			return err
		}
		key.Type, key.Text, key.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, key)
		return err
	})
}
