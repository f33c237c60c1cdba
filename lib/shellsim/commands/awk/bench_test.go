package awk

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func BenchmarkAwkSum(b *testing.B) {
	in := strings.Repeat("alice 30 paris some more words here\n", 100000)
	for range b.N {
		e := commandtest.New(b, Commands(), shStub)
		e.Run([]string{"awk", `{ s += $2; c[$3]++ } END { print s, length(c) }`}, in)
	}
}

func BenchmarkAwkLoop(b *testing.B) {
	for range b.N {
		e := commandtest.New(b, Commands(), shStub)
		e.Run([]string{"awk", `BEGIN { for (i = 0; i < 1000000; i++) s += i; print s }`}, "")
	}
}
