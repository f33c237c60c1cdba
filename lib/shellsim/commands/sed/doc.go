// Package sed implements the ShellSim sed command: a GNU sed work-alike
// running against the virtual filesystem, with POSIX BRE/ERE regexes
// translated to Go's regexp syntax.
package sed
