// Package shell is ShellSim's metered Bash executor: it walks the AST of
// mvdan.cc/sh/v3/syntax (Bash dialect), expands words through
// mvdan.cc/sh/v3/expand with hooks into our variables, command substitution
// and virtual filesystem, runs builtins, functions and registered commands as
// logical processes on the cooperative scheduler, and charges every step to
// the environment's resource meter.
//
// Errors end what bash ends in a non-interactive shell: a syntax error
// ends the script (status 2) after the whole lines before it ran (bash
// reads and runs a command at a time; syntaxerr.go); errors the parser
// finds in arithmetic and ${...} are deferred to run time (deferred.go);
// an expansion error or a readonly assignment abandons the rest of the
// input line with status 1 while the next line runs (units), and ${x:?}
// and set -u end the shell. Diagnostics use bash's words and prefixes.
//
// Hostile scripts end with an error or a stop reason, never with the host
// process: function nesting is bounded like bash's FUNCNEST (its value when
// set, else DefaultFuncNest = 5000 levels; bash itself has no default and
// crashes), every nested level (function, subshell, command substitution,
// eval, source, trap, child shell) is bounded by MaxNest and charged to the
// memory model, source nested deeper than command.MaxSyntaxNest brackets is
// refused before parsing, and large results are reserved before they are
// allocated, so the host memory of a simulation stays within twice its
// memory limit (plus the disk quota, whose files are host memory too) and
// 64 MiB.
package shell
