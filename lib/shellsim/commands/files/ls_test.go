package files

import "testing"

func TestLs(t *testing.T) {
	tree := []string{"b=hello\\n", "a=x", ".hidden=", "d/", "d/e=12345", "d/f/", "l->a"}
	runTable(t, []tc{
		{name: "plain", files: tree, args: "ls", out: "a\nb\nd\nl\n"},
		{name: "all", files: tree, args: "ls -a", out: ".\n..\n.hidden\na\nb\nd\nl\n"},
		{name: "almost-all", files: tree, args: "ls -A", out: ".hidden\na\nb\nd\nl\n"},
		{name: "one", files: tree, args: "ls -1 d", out: "e\nf\n"},
		{name: "reverse", files: tree, args: "ls -r", out: "l\nd\nb\na\n"},
		{name: "size", files: tree, args: "ls -S", out: "d\nb\na\nl\n"},
		{name: "classify", files: tree, args: "ls -F", out: "a\nb\nd/\nl@\n"},
		{name: "classify-link-operand", files: tree, args: "ls -F l d", out: "l@\n\nd:\ne\nf/\n"},
		{name: "dir-operand", files: tree, args: "ls -d d", out: "d\n"},
		{name: "files-then-dirs", files: tree, args: "ls d a b", out: "a\nb\n\nd:\ne\nf\n"},
		{name: "recursive", files: tree, args: "ls -R d", out: "d:\ne\nf\n\nd/f:\n"},
		{name: "missing", files: tree, args: "ls nosuch a", out: "a\n", err: "ls: cannot access 'nosuch': No such file or directory\n", status: 2},
		{name: "long", files: []string{"a=hello"}, args: "ls -l", out: "total 4\n-rw-r--r-- 1 root root 5 Jan  1 00:00 a\n"},
		{name: "long-link", files: []string{"a=hello", "l->a"}, args: "ls -l l", out: "lrwxrwxrwx 1 root root 1 Jan  1 00:00 l -> a\n"},
		{name: "long-human", files: []string{"a=hello"}, args: "ls -lh a", out: "-rw-r--r-- 1 root root 5 Jan  1 00:00 a\n"},
		{name: "bad-flag", args: "ls -y", err: "ls: invalid option -- 'y'\nTry 'ls --help' for more information.\n", status: 2},
	})
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1023: "1023", 1024: "1.0K", 1025: "1.1K", 1536: "1.5K", 10240: "10K", 10241: "11K", 1048576: "1.0M", 5000000: "4.8M"} {
		if got := human(n); got != want {
			t.Errorf("human(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestHelpVersion(t *testing.T) {
	runTable(t, []tc{
		{name: "version", args: "ls --version", out: "ls (GNU coreutils) 9.1\nShellSim reimplementation; the output follows the GNU tool's.\n"},
		{name: "find-version", args: "find --version", out: "find (GNU findutils) 4.9.0\nShellSim reimplementation; the output follows the GNU tool's.\n"},
		{name: "help", args: "rmdir --help", out: "Usage: rmdir [OPTION]... DIRECTORY...\nOptions modelled by ShellSim: -p -v --ignore-fail-on-non-empty --parents --verbose\n"},
		{name: "after-dashdash", args: "ls -- --help", err: "ls: cannot access '--help': No such file or directory\n", status: 2},
	})
}
