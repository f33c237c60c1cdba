// Package diff holds ShellSim's file comparison commands: diff (normal,
// unified and brief output, recursive over directories), cmp and patch
// (unified diffs, atomic over all files).
package diff
