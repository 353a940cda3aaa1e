//go:build race

package sandbox

// A race-detector build (only `go test -race`: pincer itself is never built
// so) sleeps atexit_sleep_ms, 1,000 ms by default, at every exit, and the
// sandbox helper is such a binary in tests (the test binary re-executed): each
// sandboxed command took a second longer than it does in pincer. The helper's
// environment is the command's allowlisted one, so GORACE is set here.
func init() { raceHelperEnv = []string{"GORACE=atexit_sleep_ms=0"} }
