package digest

import (
	"encoding/base32"
	"encoding/base64"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	entries := []command.Entry{
		{Name: "cksum", Trust: command.Partial, Run: Cksum},
		{Name: "hexdump", Trust: command.Partial, Run: Hexdump},
		{Name: "od", Trust: command.Partial, Run: Od},
		{Name: "strings", Trust: command.Real, Run: Strings},
		{Name: "xxd", Trust: command.Partial, Run: Xxd},
		{Name: "base64", Trust: command.Real, Run: func(inv *command.Invocation) int {
			return runBase(inv, base64.StdEncoding, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
		}},
		{Name: "base32", Trust: command.Real, Run: func(inv *command.Invocation) int {
			return runBase(inv, base32.StdEncoding, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567=")
		}},
	}
	for _, a := range sumAlgos {
		a := a
		entries = append(entries, command.Entry{Name: a.cmd, Trust: command.Real, Run: func(inv *command.Invocation) int { return runSum(inv, a) }})
	}
	return entries
}
