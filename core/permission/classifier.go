package permission

import (
	"fmt"
	"strings"
)

// The stage-two command classifier (the clio seed's two-stage check): a shell
// command no rule decided — an ask of the mode itself — may be put to a small
// model, which answers allow, ask or deny with a reason. What its answer may
// change is decided here, by pure rules; the model is never trusted to loosen
// anything but that one ask, and only in auto mode.

// Verdict is the classifier's answer on one command: Behavior Allow, Ask or
// Deny with its Reason, Model the model that gave it; Err is set (and
// Behavior ignored) when there is no usable answer (a failure, a timeout, an
// answer in no known form).
type Verdict struct {
	Behavior Behavior
	Reason   string
	Model    string
	Err      error
}

// ByClassifier is the By of a decision the classifier's verdict made.
const ByClassifier = "classifier"

// Classifiable reports whether d, the decision on in under mode, may be put
// to the classifier: a Bash command that a default, acceptEdits or auto mode
// asks about with no rule matched (d.By is the mode's). Deny rules, ask rules,
// the hard deny list, protected paths, hooks, plan mode (never loosened),
// bypassPermissions' guards and dontAsk are never put to it.
func Classifiable(mode Mode, in Input, d Decision) bool {
	switch mode {
	case ModeDefault, ModeAcceptEdits, ModeAuto:
	default:
		return false
	}
	return d.Behavior == Ask && d.Rule == "" && strings.HasPrefix(d.By, "mode:") &&
		in.Tool == "Bash" && strings.TrimSpace(in.Command) != ""
}

// WithVerdict combines d with the classifier's verdict v (only for a
// Classifiable d; any other is returned unchanged):
//   - no usable answer (v.Err, an unknown Behavior): d, the ask, its reason
//     saying why the classifier did not decide;
//   - deny: a deny By ByClassifier, in every mode it runs in (tightening);
//   - ask: d, its reason noting the verdict;
//   - allow: in auto mode an allow By ByClassifier; in default and
//     acceptEdits d, the ask (the classifier only tightens there), noting it.
func WithVerdict(mode Mode, in Input, d Decision, v Verdict) Decision {
	if !Classifiable(mode, in, d) {
		return d
	}
	who := "the classifier"
	if v.Model != "" {
		who += " (" + v.Model + ")"
	}
	reason := strings.TrimSpace(v.Reason)
	if reason == "" {
		reason = "no reason given"
	}
	if v.Err != nil || (v.Behavior != Allow && v.Behavior != Ask && v.Behavior != Deny) {
		why := "no verdict"
		if v.Err != nil {
			why = v.Err.Error()
		}
		d.Reason = fmt.Sprintf("%s; %s could not decide (%s)", d.Reason, who, why)
		return d
	}
	switch {
	case v.Behavior == Deny:
		return Decision{Behavior: Deny, By: ByClassifier, Reason: fmt.Sprintf("%s denies it: %s", who, reason)}
	case v.Behavior == Allow && mode == ModeAuto:
		return Decision{Behavior: Allow, By: ByClassifier, Reason: fmt.Sprintf("%s allows it in auto mode: %s", who, reason)}
	case v.Behavior == Allow:
		d.Reason = fmt.Sprintf("%s; %s would allow it (%s), but only auto mode lets its allow run a command", d.Reason, who, reason)
	default:
		d.Reason = fmt.Sprintf("%s; %s asks too: %s", d.Reason, who, reason)
	}
	return d
}
