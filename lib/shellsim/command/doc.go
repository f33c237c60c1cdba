// Package command defines a ShellSim command: a Go function run against one
// invocation (arguments, streams, working directory, environment, the virtual
// filesystem and the metered system), plus the table that names every command.
package command
