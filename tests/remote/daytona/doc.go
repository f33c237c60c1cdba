// Package daytona tests lib/backends/daytona against real machines (see tests/remote).
package daytona
