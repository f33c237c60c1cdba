// Command shellbox-sandboxd runs inside a local (bubblewrap) sandbox and
// executes the host's commands there; see package execd.
package main

import (
	"os"

	"github.com/shellbox/shellbox/lib/execd"
)

func main() { os.Exit(execd.Main(os.Args[1:])) }
