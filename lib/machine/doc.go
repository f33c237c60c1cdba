// Package machine is the contract every shellbox backend implements: a
// Spec says what to create, a Factory creates a Machine from it, and
// a Machine runs Commands, moves files and closes. Backends register a
// constructor by name so that the C ABI and the CLIs can open any of them.
package machine
