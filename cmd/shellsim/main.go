// Command shellsim runs shell scripts in the ShellSim simulated machine.
package main

import (
	"os"

	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
