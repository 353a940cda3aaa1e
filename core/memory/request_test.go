package memory

import "testing"

// TestRequest decides on the literal prompt: only one that opens with an
// explicit request to remember is one; "remember to …" is about the task.
func TestRequest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"remember that we use tabs and pnpm", "we use tabs and pnpm"},
		{"Remember: the API lives in api/", "the API lives in api/"},
		{"  please remember that I review on Fridays", "I review on Fridays"},
		{"Please, remember we deploy with fly", "we deploy with fly"},
		{"please remember the staging db is read-only", "the staging db is read-only"},
		{"don't forget that CI runs on arm64", "CI runs on arm64"},
		{"Do not forget: tests need docker", "tests need docker"},
		{"dont forget that main is protected", "main is protected"},
		{"REMEMBER THAT we squash merges", "we squash merges"},
		{"remember that\nline two", "line two"},
		{"remember to run the tests", ""},
		{"please remember to run the tests", ""},
		{"don't forget to commit", ""},
		{"can you remember that file?", ""},
		{"I remember that we used tabs", ""},
		{"remember that", ""},
		{"remember:   ", ""},
		{"rememberthat x", ""},
		{"fix the bug; remember that we use tabs", ""},
		{"", ""},
	} {
		got, ok := Request(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Request(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

// TestPreference is the post-turn observer's heuristic on the literal
// prompt: a sentence that states a lasting preference or corrects pincer.
func TestPreference(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"From now on, use pnpm instead of npm.", "use pnpm instead of npm"},
		{"fix the test. Going forward run gofmt before committing", "run gofmt before committing"},
		{"Always use tabs for indentation", "Always use tabs for indentation"},
		{"please never push to main", "please never push to main"},
		{"We prefer table tests", "We prefer table tests"},
		{"I always run make lint first", "I always run make lint first"},
		{"stop adding comments to every line", "stop adding comments to every line"},
		{"No, use the logger instead of fmt.Println", "use the logger instead of fmt.Println"},
		{"actually, use slog rather than log", "use slog rather than log"},
		{"add a test\nfrom now on: squash commits", "squash commits"},
		{"fix the failing test in api/", ""},
		{"why does it never return?", ""},
		{"no", ""},
		{"always", ""},
		{"remember that we always use tabs", ""}, // a request, proposed as one
		{"is it always like this", ""},
		{"Never mind, fix the test instead", ""},
		{"nevermind that, always use tabs", ""},
		{"Always the same error in CI", ""},
		{"Always " + string(make([]byte, 300)), ""},
	} {
		got, ok := Preference(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Preference(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}
