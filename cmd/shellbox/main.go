// Command shellbox checks this host's backends (doctor), runs a command or
// an interactive shell in a fresh machine (run, shell) and measures the
// backends (bench). See lib/cli for the exit codes.
package main

import (
	"os"

	"github.com/shellbox/shellbox/lib/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
