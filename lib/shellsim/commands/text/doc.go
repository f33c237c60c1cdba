// Package text holds ShellSim's text-processing commands (cat, head, sort,
// grep, ...), each in its own file, written against package command and
// registered from that file's init function.
//
// The commands follow GNU coreutils 9.1, GNU grep 3.8 and util-linux 2.38
// (rev, column) as the goldens in the _test.go files record them. Bytes
// are characters except where GNU itself is multibyte-aware under a UTF-8
// locale (wc -m and -L, rev, grep), and diagnostics quote arguments the
// way GNU does for the invocation's locale ('x' under C, ‘x’ under
// C.UTF-8). Every byte read is charged as CPU fuel, buffers that hold
// input (sort, tac, tail) reserve modeled memory, and a failed write to
// standard output or an exhausted budget ends a command at once.
//
// testdata/golden regenerates the golden tables from the host's tools;
// testdata/difftest compares a built shellsim binary with them on random
// inputs.
package text
