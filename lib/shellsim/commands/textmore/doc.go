// Package textmore holds ShellSim's shuf, tsort and unexpand.
package textmore
