package awk

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "awk", Trust: command.Real, Run: Awk},
		{Name: "gawk", Trust: command.Real, Run: Awk},
		{Name: "mawk", Trust: command.Real, Run: Awk},
		{Name: "nawk", Trust: command.Real, Run: Awk},
	}
}
