package text

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{
		{Name: "cat", Trust: command.Real, Run: Cat},
		{Name: "column", Trust: command.Partial, Run: Column},
		{Name: "comm", Trust: command.Real, Run: Comm},
		{Name: "cut", Trust: command.Real, Run: Cut},
		{Name: "expand", Trust: command.Real, Run: Expand},
		{Name: "fmt", Trust: command.Real, Run: Fmt},
		{Name: "fold", Trust: command.Real, Run: Fold},
		{Name: "head", Trust: command.Real, Run: Head},
		{Name: "join", Trust: command.Real, Run: Join},
		{Name: "nl", Trust: command.Real, Run: Nl},
		{Name: "paste", Trust: command.Real, Run: Paste},
		{Name: "rev", Trust: command.Real, Run: Rev},
		{Name: "seq", Trust: command.Real, Run: Seq},
		{Name: "sort", Trust: command.Real, Run: Sort},
		{Name: "split", Trust: command.Real, Run: Split},
		{Name: "tac", Trust: command.Real, Run: Tac},
		{Name: "tail", Trust: command.Real, Run: Tail},
		{Name: "tee", Trust: command.Real, Run: Tee},
		{Name: "tr", Trust: command.Real, Run: Tr},
		{Name: "uniq", Trust: command.Real, Run: Uniq},
		{Name: "wc", Trust: command.Real, Run: Wc},
		{Name: "yes", Trust: command.Real, Run: Yes},
		{Name: "grep", Trust: command.Partial, Run: Grep},
		{Name: "egrep", Trust: command.Partial, Run: Grep},
		{Name: "fgrep", Trust: command.Partial, Run: Grep},
	}
}
