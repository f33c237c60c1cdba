package system

import (
	"fmt"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// unsupportedNames are programs agents commonly try that ShellSim does not
// model. Each exits 127 with a clear message and is recorded as
// unsupported, so a report shows the gap instead of a silent failure.
var unsupportedNames = []string{
	"python", "python3", "pip", "pip3", "node", "npm", "npx", "git", "make", "gcc", "cc", "g++",
	"clang", "apt", "apt-get", "yum", "dnf", "apk", "docker", "sudo", "su", "ssh", "scp", "rsync",
	"vim", "vi", "nano", "emacs", "less", "more", "man", "top", "htop", "systemctl", "service",
	"go", "cargo", "rustc", "java", "javac", "ruby", "perl", "php",
}

func unsupported(inv *command.Invocation) int {
	name := inv.Args[0]
	inv.Sys.Unsupported(name)
	fmt.Fprintf(inv.Stderr, "%s: command not available in ShellSim\n", name)
	return 127
}
