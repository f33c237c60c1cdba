// Package shell is ShellSim's metered Bash executor: it walks the AST of
// mvdan.cc/sh/v3/syntax (Bash dialect), expands words through
// mvdan.cc/sh/v3/expand with hooks into our variables, command substitution
// and virtual filesystem, runs builtins, functions and registered commands as
// logical processes on the cooperative scheduler, and charges every step to
// the environment's resource meter.
package shell
