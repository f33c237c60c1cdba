// Command shellbox-guest is the /init of a shellbox QEMU microVM; see
// package guest.
package main

import (
	"os"

	"github.com/shellbox/shellbox/guest"
)

func main() { os.Exit(guest.Main(os.Args[1:])) }
