package misc

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "bc", Trust: command.Partial, Run: BC},
		{Name: "dd", Trust: command.Partial, Run: DD},
		{Name: "envsubst", Trust: command.Real, Run: Envsubst},
		{Name: "file", Trust: command.Partial, Run: File},
		{Name: "install", Trust: command.Real, Run: Install},
	}
}
