package rg_test

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/commands/rg"
)

func TestRg(t *testing.T) {
	e := commandtest.New(t, rg.Commands())
	e.WriteFile("src/a.py", "import os\ndef main():\n    print('TODO: fix')\n")
	e.WriteFile("src/b.go", "package b\n// TODO later\nfunc B() {}\n")
	e.WriteFile("README.md", "todo list\nnothing\n")
	e.WriteFile(".hidden/x.txt", "TODO hidden\n")
	e.WriteFile(".gitignore", "build/\n*.log\n")
	e.WriteFile("build/out.txt", "TODO built\n")
	e.WriteFile("debug.log", "TODO log\n")
	e.WriteFile("bin.dat", "TODO\x00binary")
	cases := []struct {
		args []string
		want string
		st   int
	}{
		{[]string{"rg", "TODO"}, "src/a.py:    print('TODO: fix')\nsrc/b.go:// TODO later\n", 0},
		{[]string{"rg", "-n", "TODO", "src"}, "src/a.py:3:    print('TODO: fix')\nsrc/b.go:2:// TODO later\n", 0},
		{[]string{"rg", "-i", "-l", "todo"}, "README.md\nsrc/a.py\nsrc/b.go\n", 0},
		{[]string{"rg", "-c", "TODO"}, "src/a.py:1\nsrc/b.go:1\n", 0},
		{[]string{"rg", "-t", "py", "TODO"}, "src/a.py:    print('TODO: fix')\n", 0},
		{[]string{"rg", "-g", "*.go", "-o", "TODO \\w+"}, "src/b.go:TODO later\n", 0},
		{[]string{"rg", "--hidden", "-l", "TODO"}, ".hidden/x.txt\nsrc/a.py\nsrc/b.go\n", 0},
		{[]string{"rg", "-u", "-l", "TODO"}, "build/out.txt\ndebug.log\nsrc/a.py\nsrc/b.go\n", 0},
		{[]string{"rg", "TODO", "src/a.py"}, "    print('TODO: fix')\n", 0},
		{[]string{"rg", "-F", "print('", "src/a.py"}, "    print('TODO: fix')\n", 0},
		{[]string{"rg", "-w", "B", "src"}, "src/b.go:func B() {}\n", 0},
		{[]string{"rg", "-A", "1", "import", "src/a.py"}, "import os\ndef main():\n", 0},
		{[]string{"rg", "nomatch"}, "", 1},
		{[]string{"rg", "--files", "src"}, "src/a.py\nsrc/b.go\n", 0},
		{[]string{"rg", "("}, "", 2},
	}
	for _, c := range cases {
		out, errOut, st := e.Run(c.args, "")
		if out != c.want || st != c.st {
			t.Errorf("%v: got %q (%d) %q, want %q (%d)", c.args, out, st, errOut, c.want, c.st)
		}
	}
}
