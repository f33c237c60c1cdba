// Package ar holds ShellSim's ar: GNU ar's deterministic mode (the Debian
// default) over archives in the VFS, so archives it writes are byte for byte
// those GNU ar writes from the same files. Members are plain files; the
// symbol index of object files is not built (the simulation has no
// compiler), which GNU ar also omits for non-object members.
package ar
