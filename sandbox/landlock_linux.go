package sandbox

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// deviceFiles are the device nodes every command may open for writing (and use
// ioctls on): without /dev/null, os/exec and most shells cannot even start.
var deviceFiles = []string{
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx",
}

// deviceDirs are device directories commands may write in: POSIX shared
// memory (Python's multiprocessing) and pseudo-terminals.
var deviceDirs = []string{"/dev/shm", "/dev/pts"}

// landlockABI returns the Landlock ABI version of the running kernel, or 0 and
// the reason it is unavailable.
func landlockABI() (int, error) {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0, describeLandlockError(err)
	}
	if v <= 0 {
		return 0, errors.New("the kernel reports no Landlock ABI")
	}
	return v, nil
}

// describeLandlockError turns the error of landlock_create_ruleset into a reason
// a person can act on.
func describeLandlockError(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return errors.New("the kernel was built without Landlock (needs Linux 5.13+ with CONFIG_SECURITY_LANDLOCK)")
	case errors.Is(err, syscall.EOPNOTSUPP):
		return errors.New("Landlock is disabled at boot (add \"landlock\" to the lsm= kernel parameter)")
	}
	return fmt.Errorf("Landlock unavailable: %w", err)
}

// applyLandlock restricts the helper (and so the command it executes, and all
// their children) to reading everywhere (with spec.ConfineReads: only what
// readRules lists) and writing only where grants say, the
// device files and directories above, and — per the spec — no TCP, no
// abstract UNIX sockets and no signals to processes outside the sandbox.
//
// It runs in best-effort mode: on a kernel with an older ABI the rights that ABI
// does not know are left out, and without Landlock at all it does nothing
// (unless spec.RequireLandlock, which makes that an error).
func applyLandlock(spec helperSpec, grants []grant) error {
	abi, err := landlockABI()
	if abi == 0 {
		if spec.RequireLandlock {
			return err
		}
		return nil
	}

	cfg := landlock.V11.BestEffort()
	cfg.HandledAccessNet = 0
	if spec.DenyTCP {
		cfg.HandledAccessNet = landlock.V11.HandledAccessNet
	}
	cfg.Scoped = ll.ScopeSignal
	if !spec.Network {
		cfg.Scoped |= ll.ScopeAbstractUnixSocket
	}

	// Every planned path is opened here, without following a symlink, and
	// the rules name the descriptors (pinner): the device paths are the
	// system's, fixed (/dev/ptmx may be a link to pts/ptmx).
	var pins pinner
	defer pins.close()
	reads, err := readRules(spec, &pins)
	if err != nil {
		return err
	}
	rules := append(reads,
		landlock.RWFiles(deviceFiles...).WithIoctlDev().IgnoreIfMissing(),
		landlock.PathAccess(deviceDirRights(abi), deviceDirs...).IgnoreIfMissing(),
	)
	for _, g := range grants {
		pinned, err := pins.pin([]string{g.path})
		if err != nil {
			return err
		}
		if len(pinned) == 0 {
			continue // gone since carve listed it
		}
		if !g.dir {
			rules = append(rules, landlock.RWFiles(pinned[0]).IgnoreIfMissing())
			continue
		}
		r := landlock.PathAccess(writableDirRights(abi), pinned[0]).IgnoreIfMissing()
		// "refer" (moving files between directories) exists from ABI 2 on; asking
		// for it on ABI 1 would make best-effort mode drop Landlock altogether.
		if abi >= 2 {
			r = r.WithRefer()
		}
		rules = append(rules, r)
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("applying Landlock: %w", err)
	}
	return nil
}

// readRules are the Landlock rules of what spec lets a command read: the
// whole file system, or with spec.ConfineReads its ReadDirs and ReadFiles
// (opened by pins, see pinner) and the names in /dev (its device files are
// deviceFiles and deviceDirs only, so that no disk is read raw). With
// spec.Network the directories allow connecting to the Unix sockets in them.
func readRules(spec helperSpec, pins *pinner) ([]landlock.Rule, error) {
	if !spec.ConfineReads {
		dirs := landlock.RODirs("/")
		if spec.Network {
			dirs = dirs.WithResolveUnix()
		}
		return []landlock.Rule{dirs}, nil
	}
	readDirs, err := pins.pin(spec.ReadDirs)
	if err != nil {
		return nil, err
	}
	readFiles, err := pins.pin(spec.ReadFiles)
	if err != nil {
		return nil, err
	}
	dirs := landlock.RODirs(readDirs...).IgnoreIfMissing()
	if spec.Network {
		dirs = dirs.WithResolveUnix()
	}
	return []landlock.Rule{dirs, landlock.ROFiles(readFiles...).IgnoreIfMissing(),
		landlock.PathAccess(landlock.AccessFSSet(ll.AccessFSReadDir), "/dev").IgnoreIfMissing()}, nil
}

// writableDirRights are the rights on a writable tree: everything RWDirs
// grants (for this ABI) but creating character and block devices, which no
// command needs and which would reach hardware past Landlock (without
// CAP_MKNOD, which the helper drops too, mknod fails anyway).
func writableDirRights(abi int) landlock.AccessFSSet {
	r := landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir |
		ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeDir |
		ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeSym)
	if abi >= 3 {
		r |= landlock.AccessFSSet(ll.AccessFSTruncate)
	}
	return r
}

// deviceDirRights are writableDirRights plus device ioctls (ABI 5+), for
// /dev/shm and /dev/pts.
func deviceDirRights(abi int) landlock.AccessFSSet {
	r := writableDirRights(abi)
	if abi >= 5 {
		r |= landlock.AccessFSSet(ll.AccessFSIoctlDev)
	}
	return r
}
