// Package misc holds ShellSim commands that fit no larger family: file,
// install, envsubst, dd and bc.
package misc
