package sed

import (
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func BenchmarkSedSubst(b *testing.B) {
	in := strings.Repeat("alice 30 paris some more words here\n", 100000)
	for range b.N {
		e := commandtest.New(b, Commands(), shStub)
		e.Run([]string{"sed", "-E", "s/([a-z]+) ([0-9]+)/\\2 \\1/g;/paris/s/o/0/g"}, in)
	}
}

func BenchmarkSedBackref(b *testing.B) {
	in := strings.Repeat("abcabc xyzxyz\n", 20000)
	for range b.N {
		e := commandtest.New(b, Commands(), shStub)
		e.Run([]string{"sed", "-E", "s/([a-z]+)\\1/<\\1>/g"}, in)
	}
}
