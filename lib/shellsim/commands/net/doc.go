// Package net holds ShellSim's virtual network commands: curl and wget,
// which answer from the route table of a command.Network (there are no
// sockets), and net, which edits that table.
package net
