// Package iris tests lib/backends/iris against real machines (see tests/remote).
package iris
