//go:build !linux

package machinetest

import "errors"

// RSS cannot read the resident set here: it reports 0.
func RSS() int64 { return 0 }

// PeakRSS cannot sample the resident set here: it runs fn and reports no
// growth.
func PeakRSS(fn func()) int64 {
	fn()
	return 0
}

// Descendants needs /proc.
func Descendants() (int, error) {
	return 0, errors.New("machinetest: counting descendant processes needs Linux")
}
