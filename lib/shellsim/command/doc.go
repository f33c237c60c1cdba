// Package command defines a ShellSim command: a Go function run against one
// invocation (arguments, streams, working directory, environment, the virtual
// filesystem and the metered system), plus the Table that names the commands of one machine.
package command
