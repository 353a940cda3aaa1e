package cli

import "fmt"

// plural is "1 WORD" or "N WORDs" (a regular English plural).
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
