// Package interp runs the Python 3 subset parsed by package syntax: a
// tree-walking evaluator with CPython's object model where scripts observe
// it (classes, MRO, exceptions, generators, dunder methods), a builtin
// library, and slices of the standard library and pytest. Every evaluation
// step spends CPU fuel, live objects are measured against the modeled
// memory limit, recursion is bounded (RecursionError, never a host stack
// overflow), and all I/O, time and processes go through the ShellSim
// command.System and FS; nothing touches the host.
package interp
