package diff

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "apply_patch", Trust: command.Partial, Run: ApplyPatch},
		{Name: "cmp", Trust: command.Real, Run: Cmp},
		{Name: "diff", Trust: command.Partial, Run: Diff},
		{Name: "patch", Trust: command.Partial, Run: Patch},
	}
}
