// Package diff holds ShellSim's file comparison commands: diff (normal,
// unified, context and brief output, recursive over directories), cmp,
// patch (unified diffs, atomic over all files) and apply_patch (the agent
// "*** Begin Patch" format, atomic too).
package diff
