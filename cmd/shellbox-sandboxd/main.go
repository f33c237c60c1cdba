// Command shellbox-sandboxd runs inside a local (bubblewrap) sandbox and
// executes the host's commands there; see package execd. Its first
// argument "launch" selects, instead, the host process that starts the
// sandbox, and "overlay" that process's copy-on-write stage without root;
// see package launcher.
package main

import (
	"os"

	"github.com/shellbox/shellbox/lib/backends/local/launcher"
	"github.com/shellbox/shellbox/lib/execd"
)

// reservedThreads is how many idle OS threads the helper and the launcher
// keep for the moments when their machine's task limit is exhausted.
const reservedThreads = 32

func main() {
	execd.ReserveThreads(reservedThreads)
	if len(os.Args) > 1 && os.Args[1] == launcher.Command {
		os.Exit(launcher.Main(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == launcher.OverlayCommand {
		os.Exit(launcher.OverlayMain(os.Args[2:]))
	}
	os.Exit(execd.Main(os.Args[1:]))
}
