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
//   - a recursive rm (-r, -R, --recursive, in any cluster or order) of /,
//     ~, $HOME, env.Home, env.Workspace, any ancestor of those two, or a
//     top-level system directory (/usr, /etc, ...); relative paths resolve
//     against env.Cwd (env.Workspace when empty), so `rm -rf .` in the
//     workspace root is denied; a glob that can match one of those (/*,
//     ~/*, /u*, ../*) counts as it; {a,b} alternatives are each checked;
//   - a recursive rm whose target is known only when it runs: a
//     parameter expansion other than $HOME/$PWD (`d=/; rm -rf $d`,
//     `rm -rf "$DIR"`, `rm -rf ${X:-/}`), a command substitution, ~user;
//     an rm with a non-literal word before `--` counts as recursive (the
//     word may expand to -rf); an rm -r run by xargs (its targets come
//     from stdin);
//   - find with -delete, or -exec/-execdir/-ok/-okdir running rm, shred or
//     unlink, whose starting point is /, the home directory, an ancestor
//     of it or of the workspace, a system directory, a glob matching one,
//     or a non-literal word;
//   - mkfs, mkfs.*, mke2fs, wipefs, blkdiscard, shred, killall5;
//   - a write to a block device (/dev/sd* nvme* hd* vd* xvd* mmcblk* loop*
//     dm-* md* mapper/* nbd* disk* rdisk* block/*, and /dev/mem, /dev/kmem,
//     /dev/port), after cleaning the path: dd of=, tee, cp/mv/install onto
//     one, or any write redirect (`cat x > /dev/sda`, `> /dev/./sda`);
//   - kill of pid -1 (every process) with any signal (`kill -9 -1`,
//     `kill -KILL -1`, `kill -s KILL -1`, `kill -- -1`);
//   - download and execute: a network fetcher (curl wget fetch aria2c http
//     httpie xh nc ...) whose output feeds an interpreter, as Analyze
//     reports it (`curl ... | sh`, `wget -O- ... | sudo bash`,
//     `bash <(curl ...)`, `sh -c "$(curl ...)"`, `source <(wget ...)`,
//     `curl ... > >(sh)`,
//     `curl ... | python3`), or that saves a file a later command of the
//     line runs (`curl -o i.sh URL && bash i.sh`, `wget URL/x; ./x`);
//   - a fork bomb (a function calling itself in a pipeline or in the
//     background, as found by Analyze);
//   - chmod, chown or chgrp -R/--recursive of / (any mode, not just 777);
//   - shutdown, reboot, halt, poweroff, init/telinit 0|6, systemctl
//     poweroff|reboot|halt|kexec.
//
// Other non-literal targets ($DIR, $(...)) are not denied here; they are
// non-literal and the engine asks. reason is one sentence.
func HardDeny(a Analysis, env Env) (reason string, denied bool) {
	for _, c := range a.Commands {
		if reason, denied := hardDenyCommand(c, env); denied {
			return reason, true
		}
	}
	if reason, denied := downloadedThenRun(a, env); denied {
		return reason, true
	}
	for _, r := range a.Risks {
		if strings.HasPrefix(r, riskForkBomb) {
			return "A fork bomb is never allowed (" + strings.TrimPrefix(r, riskForkBomb+": ") + ").", true
		}
		if strings.HasPrefix(r, riskDownloadExec) {
			return "Running a program downloaded from the network is never allowed (" + strings.TrimPrefix(r, riskDownloadExec) + ").", true
		}
	}
	return "", false
}

func hardDenyCommand(c Command, env Env) (string, bool) {
	for _, r := range c.Redirects {
		if r.Write && env.isDisk(r.Target) {
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
		return rmDenied(args, env, c.Origin == "xargs")
	case name == "find":
		return findDenied(args, env)
	case name == "mkfs" || strings.HasPrefix(name, "mkfs.") || name == "mke2fs":
		return fmt.Sprintf("Creating a file system (%s) is never allowed.", name), true
	case name == "wipefs" || name == "blkdiscard":
		return fmt.Sprintf("Wiping a block device (%s) is never allowed.", name), true
	case name == "shred":
		return "Shredding files (shred) is never allowed; use rm.", true
	case name == "killall5":
		return "Signalling every process (killall5) is never allowed.", true
	case name == "kill":
		return killDenied(args)
	case name == "dd":
		for _, a := range args {
			if dev, ok := strings.CutPrefix(a.val, "of="); ok && env.isDisk(dev) {
				return fmt.Sprintf("dd onto the disk device %s is never allowed.", dev), true
			}
		}
	case name == "tee":
		for _, a := range args {
			if env.isDisk(a.val) {
				return fmt.Sprintf("Writing to the disk device %s is never allowed.", a.val), true
			}
		}
	case name == "cp" || name == "mv" || name == "install":
		if dev, ok := copyOntoDisk(args, env); ok {
			return fmt.Sprintf("Copying onto the disk device %s is never allowed.", dev), true
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

// rmDenied checks rm's arguments; viaXargs reports that xargs runs it
// (with targets from stdin).
func rmDenied(args []word, env Env, viaXargs bool) (string, bool) {
	recursive, unknownFlag := false, ""
	var targets []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		nonLit := !a.lit && !looksLiteral(v)
		switch {
		case nonLit:
			if unknownFlag == "" && mayBeFlag(a, env) {
				unknownFlag = a.src
			}
			targets = append(targets, a)
		case v == "--":
			targets = append(targets, args[i+1:]...)
			i = len(args)
		case v == "--recursive":
			recursive = true
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			recursive = recursive || strings.ContainsAny(v, "rR")
		case strings.HasPrefix(v, "--"):
		default:
			targets = append(targets, a)
		}
	}
	if !recursive && unknownFlag == "" {
		return "", false
	}
	for _, t := range targets {
		for _, r := range env.resolveTarget(t) {
			switch r.kind {
			case targetPath:
				if desc, ok := env.protectedPath(r.path, false); ok {
					return fmt.Sprintf("Recursively deleting %s (%s) is never allowed.", desc, t.src), true
				}
			case targetGlob:
				if desc, ok := env.globHits(r.path, false); ok {
					return fmt.Sprintf("Recursively deleting %s (%s) is never allowed.", desc, t.src), true
				}
			case targetUnknown:
				if !recursive {
					return fmt.Sprintf("rm with the non-literal argument %s before -- may expand to -rf and any path, which is never allowed; write the path literally or after --.", unknownFlag), true
				}
				return fmt.Sprintf("Recursively deleting a path known only when the command runs (%s) is never allowed; write the path literally.", t.src), true
			}
		}
	}
	if viaXargs && recursive {
		return "Recursively deleting paths read from stdin (xargs rm -r) is never allowed; use find with -exec rm -r or literal paths.", true
	}
	return "", false
}

// mayBeFlag reports whether a non-literal rm argument may expand to an
// option such as -rf: any expansion that does not resolve to a path
// ($DIR, $(cmd)), and a glob that starts with a wildcard (`*` matches a
// file named -rf). ~, $HOME and $PWD resolve to absolute paths and cannot.
func mayBeFlag(a word, env Env) bool {
	for _, r := range env.resolveTarget(a) {
		switch r.kind {
		case targetUnknown:
			return true
		case targetGlob:
			s := strings.TrimLeft(a.val, `"'`)
			if s != "" && strings.IndexByte("*?[", s[0]) >= 0 {
				return true
			}
		}
	}
	return false
}

// findDeletes are the programs whose use under find -exec counts as a
// delete.
var findDeletes = map[string]bool{"rm": true, "shred": true, "unlink": true, "rmdir": true}

// findDenied checks find's starting points when it deletes: -delete, or
// -exec/-execdir/-ok/-okdir of rm, shred, unlink, rmdir or a non-literal
// program. The workspace root itself is a fine starting point (find .
// -name '*.o' -delete); /, the home directory, their ancestors and the
// system directories are not, nor is a starting point known only at run
// time.
func findDenied(args []word, env Env) (string, bool) {
	deletes := false
	for _, a := range args {
		if a.val == "-delete" {
			deletes = true
		}
	}
	for _, cmd := range findExecs(args) {
		ws := unwrapAll(cmd)
		if len(ws) > 0 && (!ws[0].lit && !looksLiteral(ws[0].val) || findDeletes[path.Base(ws[0].val)]) {
			deletes = true
		}
	}
	if !deletes {
		return "", false
	}
	var starts []word
	i := 0
	for i < len(args) {
		v := args[i].val
		switch {
		case v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O"):
			i++
			continue
		case v == "-D":
			i += 2
			continue
		case v == "--":
			i++
		}
		break
	}
	for ; i < len(args); i++ {
		v := args[i].val
		if args[i].lit || looksLiteral(v) {
			if strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == "," {
				break
			}
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []word{raw(".")}
	}
	for _, t := range starts {
		for _, r := range env.resolveTarget(t) {
			switch r.kind {
			case targetPath:
				if desc, ok := env.protectedPath(r.path, true); ok {
					return fmt.Sprintf("Deleting with find under %s (%s) is never allowed.", desc, t.src), true
				}
			case targetGlob:
				if desc, ok := env.globHits(r.path, true); ok {
					return fmt.Sprintf("Deleting with find under %s (%s) is never allowed.", desc, t.src), true
				}
			case targetUnknown:
				return fmt.Sprintf("Deleting with find under a path known only when the command runs (%s) is never allowed; write the path literally.", t.src), true
			}
		}
	}
	return "", false
}

// killDenied denies signalling pid -1 (every process the user may
// signal): kill [-s SIG | -n NUM | -SIG] [--] PID...
func killDenied(args []word) (string, bool) {
	sigSeen := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--":
			for _, p := range args[i+1:] {
				if p.val == "-1" {
					return "Signalling every process (kill with pid -1) is never allowed.", true
				}
			}
			return "", false
		case v == "-s" || v == "-n":
			i++
			sigSeen = true
		case v == "-l" || v == "-L":
			return "", false
		case strings.HasPrefix(v, "-") && !sigSeen:
			sigSeen = true // -9, -KILL, -SIGKILL
		case v == "-1":
			return "Signalling every process (kill with pid -1) is never allowed.", true
		case strings.HasPrefix(v, "-"):
		}
	}
	return "", false
}

// copyOntoDisk reports a cp/mv/install whose destination (the last
// operand, or -t DIR / --target-directory=DIR) is a disk device.
func copyOntoDisk(args []word, env Env) (string, bool) {
	var operands []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-t" || v == "--target-directory":
			if i+1 < len(args) && env.isDisk(args[i+1].val) {
				return args[i+1].val, true
			}
			i++
		case strings.HasPrefix(v, "--target-directory="):
			if d := strings.TrimPrefix(v, "--target-directory="); env.isDisk(d) {
				return d, true
			}
		case strings.HasPrefix(v, "-t") && len(v) > 2:
			if env.isDisk(v[2:]) {
				return v[2:], true
			}
		case v == "--":
			operands = append(operands, values(args[i+1:])...)
			i = len(args)
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			operands = append(operands, v)
		}
	}
	if len(operands) >= 2 && env.isDisk(operands[len(operands)-1]) {
		return operands[len(operands)-1], true
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

// diskPrefixes are the names under /dev of block devices (and of the
// memory devices) whose overwriting destroys a disk or the running system.
var diskPrefixes = []string{"sd", "nvme", "hd", "vd", "xvd", "mmcblk", "loop", "dm-", "md", "mapper/", "nbd",
	"disk", "rdisk", "block/", "mem", "kmem", "port", "sr", "zd", "rbd", "bcache"}

// isDisk reports whether p names a disk block device, after cleaning
// (relative paths resolve against the command's directory).
func (e Env) isDisk(p string) bool {
	if !strings.HasPrefix(p, "/") {
		cwd := cleanAbs(e.Cwd)
		if cwd == "" {
			cwd = cleanAbs(e.Workspace)
		}
		if cwd == "" || !strings.Contains(p, "dev") {
			return false
		}
		p = cwd + "/" + p
	}
	rest, ok := strings.CutPrefix(path.Clean(p), "/dev/")
	if !ok {
		return false
	}
	for _, pre := range diskPrefixes {
		if strings.HasPrefix(rest, pre) {
			return true
		}
	}
	return false
}
