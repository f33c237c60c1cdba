package text

import (
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// yes - output a string repeatedly until killed
//
//	yes [STRING]...
//
// Writes the operands joined by spaces (or "y") forever; it stops when a
// write fails, which is how a closed pipe ends it, or when fuel runs out.

// yesSpec has only coreutils' --help and --version.
var yesSpec = getopt.Spec{
	Long:     []getopt.Long{{"help", "help"}, {"version", "version"}},
	GNUOrder: true,
}

// Yes runs yes.
func Yes(inv *command.Invocation) int {
	p := newProc(inv, 1)
	_, args, ok := p.parse(&yesSpec)
	if !ok {
		return p.status
	}
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	for p.charge(int64(len(line)) + 1) {
		if !p.writeString(line) {
			break
		}
	}
	return p.exit(1)
}
