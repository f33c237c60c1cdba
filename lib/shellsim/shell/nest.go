package shell

import "strconv"

// Nesting bounds. Every nested execution level (a function call, subshell,
// command substitution, eval, source, trap or child shell) holds host stack
// and memory, so its depth is bounded and each level is charged to the
// memory model; otherwise a runaway recursion would crash or exhaust the
// host process long before the modeled limits noticed.
const (
	// DefaultFuncNest is the function nesting limit when FUNCNEST is unset:
	// bash has none and segfaults between 5,000 and 10,000 levels of a
	// simple function on an 8 MiB stack; ShellSim stops cleanly instead.
	DefaultFuncNest = 5000
	// MaxNest bounds all levels together (including FUNCNEST values above it).
	MaxNest = 10000
	// frameMem is the modeled memory of one level: the host stack and
	// bookkeeping it measurably takes (about 6 KiB per function level).
	frameMem = 8 << 10
	// scopeMem is the modeled memory of one copied variable scope (a map).
	scopeMem = 256
)

// funcNest is the function nesting limit: FUNCNEST when set to a positive
// number (as in bash), else DefaultFuncNest, never above MaxNest.
func (sh *Shell) funcNest() int {
	if v, ok := sh.getVar("FUNCNEST"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return min(n, MaxNest)
		}
	}
	return DefaultFuncNest
}

// enter starts a nested level, charging its memory; false (after a
// diagnostic) when the nesting limit or the memory limit is reached. Each
// successful enter is paired with leave.
func (sh *Shell) enter() bool {
	if sh.nest >= MaxNest {
		sh.nestError()
		return false
	}
	if err := sh.rt.Meter.Reserve(frameMem); err != nil {
		sh.fatal(err)
		return false
	}
	sh.nest++
	return true
}

func (sh *Shell) leave() {
	sh.nest--
	sh.rt.Meter.Release(frameMem)
}

// nestError ends the shell process the way bash ends one that cannot fork:
// a diagnostic and status 1 (bash -c discards the rest of its input).
func (sh *Shell) nestError() {
	sh.errf("maximum nesting level exceeded (%d)", MaxNest)
	sh.exit(1)
}
