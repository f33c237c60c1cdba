// Package jq holds ShellSim's jq command: the jq language as implemented by
// github.com/itchyny/gojq, with jq 1.6's command line, output format, exit
// codes and object key order, run against the virtual filesystem.
package jq
