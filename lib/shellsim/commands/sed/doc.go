// Package sed implements the ShellSim sed command: a GNU sed work-alike
// running against the virtual filesystem, with POSIX BRE/ERE regexes in
// GNU sed's dialect matched by lib/shellsim/posixre.
package sed
