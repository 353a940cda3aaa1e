// Package e2e holds pincer's end-to-end tests (its _test.go files; this file
// only names the package): TestMain builds the real binary from the module
// root, and each test runs it against the openai test server
// (core/provider/openai/openaitest) in a temporary git repository with a private
// PINCER_HOME — headless runs, kill -9 and --continue, several processes on one
// store and its daemon, the workbench in tmux, and the attack suites (ATTACKS.md),
// whose payloads only create PROOF* marker files.
package e2e
