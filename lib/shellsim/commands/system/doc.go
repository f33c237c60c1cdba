// Package system holds ShellSim's system and process commands (date,
// sleep, timeout, env, uname, id, ps, free, expr, ...) and the table of
// names agents commonly try that the simulator does not model.
package system
