package text

import "testing"

func TestHelpAndVersion(t *testing.T) {
	runTable(t, []tc{
		{args: sh("sort --help"), out: "Usage: sort [OPTION]... [FILE]...\n  or:  sort [OPTION]... --files0-from=F\n\n(ShellSim prints only the usage line; the options are GNU's.)\n"},
		{args: sh("head -n 1 --version"), out: "head (GNU coreutils) 9.1\n"},
		{args: sh("rev --version"), out: "rev from util-linux 2.38.1\n"},
		{args: sh("cat -- --help"), status: 1, err: "cat: --help: No such file or directory\n"},
		{args: sh("grep --version"), out: "grep (GNU grep) 3.8 (shellsim)\n"},
	})
}
