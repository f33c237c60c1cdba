// Package awk implements the ShellSim awk command: a POSIX awk interpreter
// (with the common gawk extensions agents use) that reads and writes
// through the virtual filesystem and charges CPU fuel for every node it
// evaluates, so a runaway program stops deterministically.
package awk
