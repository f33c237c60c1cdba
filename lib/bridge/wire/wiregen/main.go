// Command wiregen writes the Python side of the ABI's wire types
// (python/shellbox/_wire.py): a frozen dataclass per request and reply
// type of lib/bridge/wire, an enum per string type with constants, the
// tagged unions, and their JSON codecs. go generate in lib/bridge/wire runs
// it; its test fails when the checked-in file is stale.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

func main() {
	out := flag.String("o", "", "the Python file to write (default: standard output)")
	dir := flag.String("dir", sourceDir(), "the directory of package wire's sources (for doc comments)")
	flag.Parse()
	code, err := Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiregen:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(code)
		return
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wiregen:", err)
		os.Exit(1)
	}
}

// sourceDir is package wire's directory, next to this command's.
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ".."
	}
	return filepath.Dir(filepath.Dir(file))
}
