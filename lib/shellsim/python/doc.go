// Package python provides ShellSim's python, python3, python3.13,
// python3.14 and pytest commands (and pip, pip3, uv and uvx for verifier
// scripts) through Commands(). They run the simulated interpreter of
// package interp: no host Python ever runs.
package python
