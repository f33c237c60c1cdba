package text

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

var errTooLarge = errors.New("Value too large for defined data type")
var errBadCount = errors.New("invalid")

// parseCount parses a coreutils count with an optional size suffix
// (b=512, K/k=1024, KB=1000, KiB=1024, M, G, T, P, E), as head, tail and
// split accept them.
func parseCount(s string) (int64, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, errBadCount
	}
	digits, suf := s[:i], s[i:]
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, errTooLarge
	}
	mult := uint64(1)
	if suf != "" {
		if suf == "b" {
			mult = 512
		} else {
			exp := strings.IndexByte("KMGTPEZYRQ", suf[0]&^0x20)
			if suf[0] == 'k' {
				exp = 0
			}
			if suf[0] == 'm' {
				exp = 1
			}
			if exp < 0 || (suf[0] >= 'a' && suf[0] != 'k' && suf[0] != 'm') {
				return 0, errBadCount
			}
			base := uint64(1024)
			switch suf[1:] {
			case "":
			case "B", "D":
				base = 1000
			case "iB":
			default:
				return 0, errBadCount
			}
			if exp >= 6 {
				return 0, errTooLarge
			}
			for range exp + 1 {
				mult *= base
			}
		}
	}
	if n != 0 && mult > math.MaxInt64/n {
		return 0, errTooLarge
	}
	if n*mult > math.MaxInt64 {
		return 0, errTooLarge
	}
	return int64(n * mult), nil
}
