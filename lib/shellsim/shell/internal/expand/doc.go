// Package expand is a fork of mvdan.cc/sh/v3/expand (v3.14.1, BSD-3-Clause,
// see LICENSE) with ShellSim's changes: associative arrays expand in the
// order bash walks its hash table (AssocKeys; Go map order would make runs
// non-deterministic), arithmetic evaluates variables holding expressions
// as bash does, ~user never consults the host user database, and
// ${x/#p/r} / ${x/%p/r} are anchored as in bash. bashexpr.go (ShellSim's
// own) evaluates arithmetic text the way bash does (expanded text, then
// evaluated in one pass): arithmetic holding expansions or odd words,
// expressions the parser rejected, and bash's exact diagnostics
// (ArithError). Everything else is upstream code. Upstream's tests are kept (braces_test.go,
// environ_test.go, expand_test.go, with plain testing for quicktest);
// fork_test.go and bashexpr*_test.go cover the changes.
package expand
