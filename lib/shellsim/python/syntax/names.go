package syntax

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

var (
	namesOnce sync.Once
	byName    map[string]rune
)

// lookupRuneName resolves the NAME of a \N{NAME} escape.
func lookupRuneName(name string) (rune, bool) {
	namesOnce.Do(func() {
		byName = map[string]rune{}
		for r := rune(0x20); r <= 0x10FFFF; r++ {
			if n := runenames.Name(r); n != "" && !strings.HasPrefix(n, "<") {
				byName[n] = r
			}
		}
	})
	r, ok := byName[strings.ToUpper(name)]
	return r, ok
}
