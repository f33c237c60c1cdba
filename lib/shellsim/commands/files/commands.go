package files

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "chmod", Trust: command.Real, Run: Chmod},
		{Name: "cp", Trust: command.Real, Run: Cp},
		{Name: "df", Trust: command.Real, Run: Df},
		{Name: "du", Trust: command.Real, Run: Du},
		{Name: "find", Trust: command.Real, Run: Find},
		{Name: "ln", Trust: command.Real, Run: Ln},
		{Name: "ls", Trust: command.Real, Run: Ls},
		{Name: "mkdir", Trust: command.Real, Run: Mkdir},
		{Name: "mktemp", Trust: command.Real, Run: Mktemp},
		{Name: "mv", Trust: command.Real, Run: Mv},
		{Name: "rm", Trust: command.Real, Run: Rm},
		{Name: "rmdir", Trust: command.Real, Run: Rmdir},
		{Name: "stat", Trust: command.Real, Run: Stat},
		{Name: "touch", Trust: command.Real, Run: Touch},
		{Name: "tree", Trust: command.Real, Run: Tree},
		{Name: "truncate", Trust: command.Real, Run: Truncate},
		{Name: "xargs", Trust: command.Real, Run: Xargs},
		{Name: "basename", Trust: command.Real, Run: Basename},
		{Name: "dirname", Trust: command.Real, Run: Dirname},
		{Name: "realpath", Trust: command.Real, Run: Realpath},
		{Name: "readlink", Trust: command.Real, Run: Readlink},
		{Name: "chown", Trust: command.Real, Run: Chown},
		{Name: "chgrp", Trust: command.Real, Run: Chgrp},
	}
}
