// Package expand is a fork of mvdan.cc/sh/v3/expand (v3.14.1, BSD-3-Clause,
// see LICENSE) with ShellSim's changes: associative arrays expand in sorted
// key order (Go map order would make runs non-deterministic), ~user never
// consults the host user database, and ${x/#p/r} / ${x/%p/r} are anchored as
// in bash. Everything else is upstream code.
package expand
