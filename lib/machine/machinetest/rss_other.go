//go:build !linux

package machinetest

import "errors"

// peakRSS cannot sample the resident set here: it runs fn and reports no
// growth.
func peakRSS(fn func()) int64 {
	fn()
	return 0
}

// Descendants needs /proc.
func Descendants() (int, error) {
	return 0, errors.New("machinetest: counting descendant processes needs Linux")
}
