// Package attack holds only tests: attacks on the permission engine tried
// with real bash and real processes (issue 10, classes 1-3 and 11-12).
//
// Each attack is a command line around a harmless marker payload that
// creates a file named PROOF (`touch PROOF`, a redirect to PROOF, a script
// that touches PROOF). The tests ask permission.Evaluate in default mode
// with no rules; whenever it allows, they run the command with `bash -c` in
// a scratch directory (the workspace, a fresh git repository), with HOME
// set to another scratch directory, a minimal environment and a 2 s
// timeout, and fail if a file named PROOF appears under either directory.
// A command that is not allowed is never run.
//
// TestSeedsNeverRunPayload runs each attack template alone;
// TestGeneratedCompoundsNeverRunPayload puts every template in every
// compound shape (some two thousand lines, about a second when nothing is
// allowed) in every `go test`; FuzzAllowNeverRunsPayload mutates them
// (`go test -fuzz FuzzAllowNeverRunsPayload ./core/permission/attack`).
// TestDenyRuleThroughDisguises runs `touch PROOF` in 65 disguises
// (wrappers, paths, quoting, substitutions, programs on stdin) in
// bypassPermissions under the deny rule Bash(touch:*); TestHardLimitsEveryMode
// checks that the hard limits deny in every mode under an allow-all rule
// (those are never run). TestHarnessSeesPayload proves the harness fails
// when a payload does run.
// The fuzzer runs whatever the engine allows on the real file system, so
// run it on a machine where that is acceptable.
package attack
