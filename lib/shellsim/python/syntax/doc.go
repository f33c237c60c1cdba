// Package syntax lexes and parses the Python 3 subset ShellSim runs into an
// abstract syntax tree. Parsing is all-or-nothing: any error is a *Error
// carrying the line, and a construct outside the subset is an error naming
// it, never a silent misreading. Nesting is bounded so hostile source cannot
// exhaust the host stack.
package syntax
