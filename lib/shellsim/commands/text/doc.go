// Package text holds ShellSim's text-processing commands (cat, head, sort,
// grep, ...), each in its own file, written against package command and
// registered from that file's init function.
package text
