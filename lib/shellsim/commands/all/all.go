// Package all links every ShellSim command package into a binary: import it
// for its side effect of registering the commands.
package all

import (
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/archive"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/awk"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/diff"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/digest"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/files"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/jq"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/misc"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/net"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/sed"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/system"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/text"
)
