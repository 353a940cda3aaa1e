package shell

import (
	"fmt"
	"path"
	"strings"
)

// HardDeny reports the first hard-denied command in a. Hard denials apply
// in every permission mode, bypass included, and no rule can allow them;
// they go beyond Claude Code, which leaves these to rules and the sandbox.
// Every command is checked, nested ones (sh -c, eval, substitutions,
// xargs, find -exec) included, and wrappers are looked through, sudo,
// doas, pkexec and exec too:
//
//   - rm with -r/-R/--recursive of /, ~, ~/, $HOME, ${HOME}, env.Home,
//     env.Workspace, any ancestor of those two, or a top-level system
//     directory (/usr, /etc, ...); relative paths resolve against env.Cwd
//     (env.Workspace when empty), so `rm -rf .` in the workspace root is
//     denied; a glob of all entries (/*, ~/*, * in one of those
//     directories) counts as the directory;
//   - mkfs, mkfs.*, mke2fs;
//   - dd with of= a disk device (/dev/sd* nvme* hd* vd* xvd* mmcblk*
//     disk* rdisk*), tee to one, or any write redirect to one;
//   - a fork bomb (a function calling itself in a pipeline or in the
//     background, as found by Analyze);
//   - chmod, chown or chgrp -R/--recursive of / (any mode, not just 777);
//   - shutdown, reboot, halt, poweroff, init/telinit 0|6, systemctl
//     poweroff|reboot|halt|kexec.
//
// Targets that cannot be resolved statically ($DIR, $(...)) are not
// denied here; they are non-literal and the engine asks. reason is one
// sentence.
func HardDeny(a Analysis, env Env) (reason string, denied bool) {
	for _, c := range a.Commands {
		if reason, denied := hardDenyCommand(c, env); denied {
			return reason, true
		}
	}
	for _, r := range a.Risks {
		if strings.HasPrefix(r, riskForkBomb) {
			return "A fork bomb is never allowed (" + strings.TrimPrefix(r, riskForkBomb+": ") + ").", true
		}
	}
	return "", false
}

func hardDenyCommand(c Command, env Env) (string, bool) {
	for _, r := range c.Redirects {
		if r.Write && isDisk(r.Target) {
			return fmt.Sprintf("Writing to the disk device %s is never allowed.", r.Target), true
		}
	}
	ws := unwrapAll(stringWords(c.Words, c.Literal))
	if len(ws) == 0 {
		return "", false
	}
	name, args := path.Base(ws[0].val), ws[1:]
	switch {
	case name == "rm":
		return rmDenied(args, env)
	case name == "mkfs" || strings.HasPrefix(name, "mkfs.") || name == "mke2fs":
		return fmt.Sprintf("Creating a file system (%s) is never allowed.", name), true
	case name == "dd":
		for _, a := range args {
			if dev, ok := strings.CutPrefix(a.val, "of="); ok && isDisk(dev) {
				return fmt.Sprintf("dd onto the disk device %s is never allowed.", dev), true
			}
		}
	case name == "tee":
		for _, a := range args {
			if isDisk(a.val) {
				return fmt.Sprintf("Writing to the disk device %s is never allowed.", a.val), true
			}
		}
	case name == "chmod" || name == "chown" || name == "chgrp":
		return chmodDenied(name, args, env)
	case name == "shutdown" || name == "reboot" || name == "halt" || name == "poweroff":
		return fmt.Sprintf("Powering off or rebooting the machine (%s) is never allowed.", name), true
	case name == "init" || name == "telinit":
		if len(args) > 0 && (args[0].val == "0" || args[0].val == "6") {
			return fmt.Sprintf("Powering off or rebooting the machine (%s %s) is never allowed.", name, args[0].val), true
		}
	case name == "systemctl":
		for _, a := range args {
			if strings.HasPrefix(a.val, "-") {
				continue
			}
			switch a.val {
			case "poweroff", "reboot", "halt", "kexec":
				return fmt.Sprintf("Powering off or rebooting the machine (systemctl %s) is never allowed.", a.val), true
			}
			break
		}
	}
	return "", false
}

// rmDenied checks rm's arguments.
func rmDenied(args []word, env Env) (string, bool) {
	recursive := false
	var targets []word
	for i, a := range args {
		v := a.val
		switch {
		case v == "--":
			targets = append(targets, args[i+1:]...)
		case v == "--recursive":
			recursive = true
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			recursive = recursive || strings.ContainsAny(v, "rR")
		case strings.HasPrefix(v, "--"):
		default:
			targets = append(targets, a)
			continue
		}
		if v == "--" {
			break
		}
	}
	if !recursive {
		return "", false
	}
	for _, t := range targets {
		if desc, ok := env.protected(t, false); ok {
			return fmt.Sprintf("Recursively deleting %s (%s) is never allowed.", desc, t.src), true
		}
	}
	return "", false
}

// chmodDenied checks chmod/chown/chgrp: recursive and / among the targets.
func chmodDenied(name string, args []word, env Env) (string, bool) {
	recursive := false
	var targets []word
	for _, a := range args {
		v := a.val
		switch {
		case v == "-R" || v == "--recursive" || isCluster(v, "RvcfHLP") && strings.Contains(v, "R"):
			recursive = true
		case strings.HasPrefix(v, "--"):
		default:
			targets = append(targets, a) // the mode/owner too: harmless, it never resolves to /
		}
	}
	if !recursive {
		return "", false
	}
	for _, t := range targets {
		if desc, ok := env.protected(t, true); ok {
			return fmt.Sprintf("Recursively changing %s of %s (%s) is never allowed.", map[string]string{
				"chmod": "the permissions", "chown": "the owner", "chgrp": "the group"}[name], desc, t.src), true
		}
	}
	return "", false
}

// isDisk reports whether p names a disk block device.
func isDisk(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	rest := strings.TrimPrefix(path.Clean(p), "/dev/")
	for _, pre := range []string{"sd", "nvme", "hd", "vd", "xvd", "mmcblk", "disk", "rdisk"} {
		if strings.HasPrefix(rest, pre) {
			return true
		}
	}
	return false
}
