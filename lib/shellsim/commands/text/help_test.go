package text

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestHelpAndVersion(t *testing.T) {
	runTable(t, []commandtest.Golden{
		{Args: sh("sort --help"), Stdout: "Usage: sort [OPTION]... [FILE]...\n  or:  sort [OPTION]... --files0-from=F\n\n(ShellSim prints only the usage line; the options are GNU's.)\n"},
		{Args: sh("head -n 1 --version"), Stdout: "head (GNU coreutils) 9.1\n"},
		{Args: sh("rev --version"), Stdout: "rev from util-linux 2.38.1\n"},
		{Args: sh("cat -- --help"), Status: 1, Stderr: "cat: --help: No such file or directory\n"},
		{Args: sh("grep --version"), Stdout: "grep (GNU grep) 3.8 (shellsim)\n"},
	})
}
