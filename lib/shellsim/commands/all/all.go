// Package all assembles every ShellSim command package into one
// command.Table, the default table of a ShellSim machine.
//
// A new command package exports Commands() []command.Entry and is added to
// the list in Commands below; a caller that wants other commands builds its
// own table (command.NewTable, or Commands().Clone().Add(...)) and passes
// it to the runtime (shellsim.WithCommands, shell.WithCommands).
package all

import (
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/commands/ar"
	"github.com/shellbox/shellbox/lib/shellsim/commands/archive"
	"github.com/shellbox/shellbox/lib/shellsim/commands/awk"
	"github.com/shellbox/shellbox/lib/shellsim/commands/diff"
	"github.com/shellbox/shellbox/lib/shellsim/commands/digest"
	"github.com/shellbox/shellbox/lib/shellsim/commands/files"
	"github.com/shellbox/shellbox/lib/shellsim/commands/jq"
	"github.com/shellbox/shellbox/lib/shellsim/commands/misc"
	"github.com/shellbox/shellbox/lib/shellsim/commands/net"
	"github.com/shellbox/shellbox/lib/shellsim/commands/proctools"
	"github.com/shellbox/shellbox/lib/shellsim/commands/rg"
	"github.com/shellbox/shellbox/lib/shellsim/commands/sed"
	"github.com/shellbox/shellbox/lib/shellsim/commands/system"
	"github.com/shellbox/shellbox/lib/shellsim/commands/text"
	"github.com/shellbox/shellbox/lib/shellsim/commands/textmore"
	"github.com/shellbox/shellbox/lib/shellsim/git"
	"github.com/shellbox/shellbox/lib/shellsim/make"
	"github.com/shellbox/shellbox/lib/shellsim/python"
)

// Commands returns a new table of every built-in command, with stubs that
// answer "not available" for well-known programs no package models.
func Commands() *command.Table {
	return command.NewTable(
		archive.Commands(),
		awk.Commands(),
		diff.Commands(),
		digest.Commands(),
		files.Commands(),
		jq.Commands(),
		misc.Commands(),
		net.Commands(),
		sed.Commands(),
		system.Commands(),
		text.Commands(),
		proctools.Commands(), rg.Commands(), textmore.Commands(), ar.Commands(),
		python.Commands(), make.Commands(), git.Commands(),
	).AddMissing(system.Unavailable()...)
}
