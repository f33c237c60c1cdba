package system

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "date", Trust: command.Real, Run: Date},
		{Name: "expr", Trust: command.Real, Run: Expr},
		{Name: "sleep", Trust: command.Real, Run: Sleep},
		{Name: "timeout", Trust: command.Real, Run: Timeout},
		{Name: "env", Trust: command.Real, Run: Env},
		{Name: "printenv", Trust: command.Real, Run: Printenv},
		{Name: "uname", Trust: command.Real, Run: Uname},
		{Name: "hostname", Trust: command.Real, Run: Hostname},
		{Name: "id", Trust: command.Real, Run: Id},
		{Name: "whoami", Trust: command.Real, Run: Whoami},
		{Name: "nproc", Trust: command.Real, Run: Nproc},
		{Name: "true", Trust: command.Real, Run: True},
		{Name: "false", Trust: command.Real, Run: False},
		{Name: "free", Trust: command.Real, Run: Free},
		{Name: "ps", Trust: command.Partial, Run: Ps},
	}
}

// Unavailable returns stubs for well-known programs ShellSim does not
// model (editors, pagers, compilers): each records the attempt and exits
// 127. Add them with command.Table.AddMissing, after every real command.
func Unavailable() []command.Entry {
	entries := make([]command.Entry, 0, len(unsupportedNames))
	for _, n := range unsupportedNames {
		entries = append(entries, command.Entry{Name: n, Trust: command.Unsupported, Run: unsupported})
	}
	return entries
}
