// Package make is ShellSim's make: a GNU make subset (explicit and pattern
// rules, the variable flavours =, :=, ::=, ?=, += and !=, automatic
// variables, conditionals, include, the common text functions, $(shell),
// .PHONY, recursive $(MAKE) -C) that runs recipes as simulated shell
// children and compares modification times from the virtual filesystem.
// Messages and exit status (2 on error) follow GNU make.
package make
