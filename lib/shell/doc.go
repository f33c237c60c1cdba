// Package shell is a persistent shell an agent drives one command at a time:
// working directory, variables, functions and jobs carry over between
// commands. The interactive Session runs one Bash over a byte stream (a
// pseudo-terminal, or plain pipes until a backend offers one) and detects
// each command's end by a random per-command marker, never by timing; the
// non-interactive Session runs each command as its own process on a
// machine.Machine.
package shell
