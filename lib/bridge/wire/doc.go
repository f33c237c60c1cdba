// Package wire is the JSON that crosses the C ABI (cgo/ABI.md): one Go type
// per method's request and reply header, the error header, and the enums
// and tagged unions they use. The table Methods is the ABI's method table
// as code. The Python side of every type (python/shellbox/_wire.py) is
// generated from this package by wiregen, so the two cannot drift; the
// bridge converts between these types and the machine contract in one
// place (lib/bridge/adapt.go).
//
// Conventions: seconds are float64 (Seconds, which also reads the strings
// "NaN", "Infinity" and "-Infinity"); an optional value is a pointer or an
// omitempty field (None in Python); byte fields are base64; Python field
// names are the JSON names.
package wire

//go:generate go run ./wiregen -o ../../../python/shellbox/_wire.py
