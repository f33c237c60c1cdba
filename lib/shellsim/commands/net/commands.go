package net

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "curl", Trust: command.Partial, Run: Curl},
		{Name: "net", Trust: command.Real, Run: Net},
		{Name: "wget", Trust: command.Partial, Run: Wget},
	}
}
