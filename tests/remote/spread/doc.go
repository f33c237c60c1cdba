// Package spread tests lib/backends/spread against real machines (see tests/remote).
package spread
