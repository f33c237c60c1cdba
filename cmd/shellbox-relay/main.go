// Command shellbox-relay runs inside a machine: it listens on a guest
// loopback port and relays each HTTP request to the host over its standard
// input and output (see lib/relay). It is static and needs nothing from
// the image.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/relay"
)

func main() {
	port := flag.Int("port", 0, "guest loopback port to listen on")
	also := flag.String("also", "", "comma-separated addresses to listen on as well, on the same port (a gVisor task group member's group address)")
	flag.Parse()
	if *port < 1 || *port > 65535 {
		fmt.Fprintln(os.Stderr, "shellbox-relay: -port must be in 1..65535")
		os.Exit(2)
	}
	addrs := []string{"127.0.0.1"}
	if *also != "" {
		addrs = append(addrs, strings.Split(*also, ",")...)
	}
	var lns []net.Listener
	for _, a := range addrs {
		ln, err := net.Listen("tcp", net.JoinHostPort(a, strconv.Itoa(*port)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "shellbox-relay:", err)
			os.Exit(1)
		}
		lns = append(lns, ln)
	}
	if err := relay.NewGuest(bufio.NewReaderSize(os.Stdin, 64<<10), os.Stdout).Serve(relay.JoinListeners(lns...)); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-relay:", err)
		os.Exit(1)
	}
}
