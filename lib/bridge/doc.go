// Package bridge is the object model behind the C ABI: a table of numbered
// handles (factories, machines, processes), each answering named method
// calls whose request is JSON plus one raw byte payload and whose reply is
// a JSON header plus raw body segments. The JSON is package wire's types;
// adapt.go converts them to and from the machine contract (defaults, the one
// validation, error kinds). The cgo package only moves these bytes across;
// everything else about a call lives here.
package bridge
