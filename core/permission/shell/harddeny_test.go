package shell

import (
	"strings"
	"testing"
)

var testEnv = Env{Home: "/home/u", Workspace: "/work/proj", Cwd: "/work/proj"}

func TestHardDeny(t *testing.T) {
	cases := []struct {
		src    string
		env    Env    // testEnv when zero
		reason string // "" when allowed
	}{
		// rm -r of protected directories
		{src: "rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "rm -rf /*", reason: "Recursively deleting the root directory (/*) is never allowed."},
		{src: "rm -r -f ~", reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "rm -fr $HOME", reason: "Recursively deleting the home directory ($HOME) is never allowed."},
		{src: "rm -rf ${HOME}", reason: "Recursively deleting the home directory (${HOME}) is never allowed."},
		{src: `rm -rf "$HOME"/`, reason: `Recursively deleting the home directory ("$HOME"/) is never allowed.`},
		{src: "rm -rf ~/", reason: "Recursively deleting the home directory (~/) is never allowed."},
		{src: "rm -rf ~/*", reason: "Recursively deleting the home directory (~/*) is never allowed."},
		{src: "rm -rf /home/u", reason: "Recursively deleting the home directory (/home/u) is never allowed."},
		{src: "rm -R /home/u/./", reason: "Recursively deleting the home directory (/home/u/./) is never allowed."},
		{src: "rm -R /work/proj", reason: "Recursively deleting the workspace root (/work/proj) is never allowed."},
		{src: "rm -rf .", reason: "Recursively deleting the workspace root (.) is never allowed."},
		{src: "rm -rf ./", reason: "Recursively deleting the workspace root (./) is never allowed."},
		{src: "rm -rf *", reason: "Recursively deleting the workspace root (*) is never allowed."},
		{src: "rm -rf *", env: Env{Home: "/home/u", Workspace: "/work/proj", Cwd: "/"}, reason: "Recursively deleting the root directory (*) is never allowed."},
		{src: "rm -rf ..", env: Env{Home: "/home/u", Workspace: "/work/proj", Cwd: "/work/proj/sub"}, reason: "Recursively deleting the workspace root (..) is never allowed."},
		{src: "rm -rf ..", reason: "Recursively deleting a parent of the workspace (..) is never allowed."},
		{src: "rm -rf /home", reason: "Recursively deleting a parent of the home directory (/home) is never allowed."},
		{src: "rm -rf /usr", reason: "Recursively deleting the system directory /usr (/usr) is never allowed."},
		{src: "rm --recursive --force /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "rm -rf -- /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "rm -rf --no-preserve-root /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "rm -rf build ~", reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "rm -rf ~", env: Env{Workspace: "/w"}, reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "/bin/rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		// through wrappers, sudo and nesting
		{src: "sudo rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "sudo -u root -E rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "timeout 5 nice sudo nohup rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: `bash -c "rm -rf /"`, reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: `bash -c "rm -rf $HOME"`, reason: "Recursively deleting the home directory ($HOME) is never allowed."},
		{src: "sh -c 'cd x && rm -rf ~'", reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "echo $(rm -rf ~)", reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "echo `rm -rf /`", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: `eval "rm -rf /"`, reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "echo / | xargs rm -rf /", reason: "Recursively deleting the root directory (/) is never allowed."},
		{src: "find . -exec rm -rf ~ \\;", reason: "Recursively deleting the home directory (~) is never allowed."},
		{src: "sudo bash -c 'exec rm -rf /'", reason: "Recursively deleting the root directory (/) is never allowed."},
		// file systems and devices
		{src: "mkfs /dev/sda1", reason: "Creating a file system (mkfs) is never allowed."},
		{src: "mkfs.ext4 /dev/sdb", reason: "Creating a file system (mkfs.ext4) is never allowed."},
		{src: "sudo mkfs.xfs -f /dev/nvme0n1", reason: "Creating a file system (mkfs.xfs) is never allowed."},
		{src: "dd if=/dev/zero of=/dev/sda bs=1M", reason: "dd onto the disk device /dev/sda is never allowed."},
		{src: "dd if=x.img of=/dev/nvme0n1", reason: "dd onto the disk device /dev/nvme0n1 is never allowed."},
		{src: "dd of=/dev/mmcblk0 if=x", reason: "dd onto the disk device /dev/mmcblk0 is never allowed."},
		{src: "dd if=x of=/dev/disk2", reason: "dd onto the disk device /dev/disk2 is never allowed."},
		{src: "dd if=x of=/dev/hda", reason: "dd onto the disk device /dev/hda is never allowed."},
		{src: "echo x > /dev/sda", reason: "Writing to the disk device /dev/sda is never allowed."},
		{src: "cat img >> /dev/vda1", reason: "Writing to the disk device /dev/vda1 is never allowed."},
		{src: "cat img | sudo tee /dev/sdb", reason: "Writing to the disk device /dev/sdb is never allowed."},
		// fork bombs
		{src: ":(){ :|:& };:", reason: "A fork bomb is never allowed (function : calls itself in a pipeline or in the background)."},
		{src: "bomb() { bomb | bomb & }; bomb", reason: "A fork bomb is never allowed (function bomb calls itself in a pipeline or in the background)."},
		{src: "f(){ f & f; }; f", reason: "A fork bomb is never allowed (function f calls itself in a pipeline or in the background)."},
		{src: "bash -c ':(){ :|:& };:'", reason: "A fork bomb is never allowed (function : calls itself in a pipeline or in the background)."},
		// chmod / chown of /
		{src: "chmod -R 777 /", reason: "Recursively changing the permissions of the root directory (/) is never allowed."},
		{src: "chmod --recursive a+rwx /", reason: "Recursively changing the permissions of the root directory (/) is never allowed."},
		{src: "sudo chmod -Rv 000 /*", reason: "Recursively changing the permissions of the root directory (/*) is never allowed."},
		{src: "chown -R nobody /", reason: "Recursively changing the owner of the root directory (/) is never allowed."},
		// power
		{src: "shutdown -h now", reason: "Powering off or rebooting the machine (shutdown) is never allowed."},
		{src: "reboot", reason: "Powering off or rebooting the machine (reboot) is never allowed."},
		{src: "sudo poweroff", reason: "Powering off or rebooting the machine (poweroff) is never allowed."},
		{src: "halt -f", reason: "Powering off or rebooting the machine (halt) is never allowed."},
		{src: "init 0", reason: "Powering off or rebooting the machine (init 0) is never allowed."},
		{src: "sudo init 6", reason: "Powering off or rebooting the machine (init 6) is never allowed."},
		{src: "systemctl reboot", reason: "Powering off or rebooting the machine (systemctl reboot) is never allowed."},
		{src: "systemctl --force poweroff", reason: "Powering off or rebooting the machine (systemctl poweroff) is never allowed."},
		{src: "sudo systemctl halt", reason: "Powering off or rebooting the machine (systemctl halt) is never allowed."},
		// allowed
		{src: "rm -rf ./build"},
		{src: "rm -rf /tmp/x"},
		{src: "rm -rf build dist node_modules"},
		{src: "rm -f /"},
		{src: "rm ~"},
		{src: "rm -rf ~/projects/old"},
		{src: "rm -rf $HOME/.cache"},
		{src: "rm -rf *.o"},
		{src: "rm -rf '$HOME'"},
		{src: "rm -rf '~'"},
		{src: "rm /home/u/file"},
		{src: "rm -r /work/proj/sub"},
		{src: "rm -rf *", env: Env{Home: "/home/u", Workspace: "/work/proj", Cwd: "/work/proj/build"}},
		{src: "rm -rf /tmp"},
		{src: "ls /"},
		{src: "echo rm -rf /"},
		{src: `grep -r "rm -rf /" .`},
		{src: `git commit -m "rm -rf /"`},
		{src: "cat <<'EOF'\nrm -rf /\nEOF"},
		{src: "dd if=/dev/sda of=backup.img"},
		{src: "dd if=/dev/zero of=/dev/null count=1"},
		{src: "cat /dev/sda > /dev/null"},
		{src: "chmod -R 755 ./dist"},
		{src: "chmod 777 /"},
		{src: "chmod -r /"},
		{src: "chown -R u:u ./x"},
		{src: "init 3"},
		{src: "systemctl restart nginx"},
		{src: "systemctl status reboot.target"},
		{src: "f(){ f; }"},
		{src: "walk() { [ -d x ] && walk x | cat; }"},
		{src: "mkdir -p build && make"},
		{src: "echo 'shutdown'"},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		env := tc.env
		if env == (Env{}) {
			env = testEnv
		}
		reason, denied := HardDeny(Analyze(tc.src), env)
		if denied != (tc.reason != "") || reason != tc.reason {
			t.Errorf("HardDeny(%q) = %q, %v; want %q", tc.src, reason, denied, tc.reason)
		}
		if denied && (!strings.HasSuffix(reason, ".") || strings.Count(reason, ". ") > 0) {
			t.Errorf("HardDeny(%q) reason %q is not one sentence", tc.src, reason)
		}
	}
}
