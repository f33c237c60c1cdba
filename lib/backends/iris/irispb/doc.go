// Package irispb holds the Go messages and Connect stubs of Iris's
// ControllerService, generated from the .proto files the marin-iris wheel
// ships (proto/, copied unchanged from marin-iris 0.2.227.dev40316220070).
// generate.sh regenerates them; the subpackages are one per proto package.
package irispb
