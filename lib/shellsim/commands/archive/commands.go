package archive

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "tar", Trust: command.Partial, Run: Tar},
		{Name: "unzip", Trust: command.Partial, Run: Unzip},
		{Name: "zip", Trust: command.Partial, Run: Zip},
		{Name: "gzip", Trust: command.Partial, Run: func(inv *command.Invocation) int { return runGzip(inv, false, false) }},
		{Name: "gunzip", Trust: command.Partial, Run: func(inv *command.Invocation) int { return runGzip(inv, true, false) }},
		{Name: "zcat", Trust: command.Partial, Run: func(inv *command.Invocation) int { return runGzip(inv, true, true) }},
	}
}
