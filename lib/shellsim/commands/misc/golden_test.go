package misc

import (
	"regexp"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

//go:generate sh -c "python3 ../../command/commandtest/gengolden.py testdata/cases.py misc goldens > goldens_test.go"

var adrRE = regexp.MustCompile(`adr=\d+`)

// TestGoldens runs the cases recorded from the real tools (goldens_test.go).
func TestGoldens(t *testing.T) {
	commandtest.Goldens{
		Commands: [][]command.Entry{Commands()},
		// bc's "adr" is a bytecode address in GNU bc and a line here;
		// goldens normalise it.
		Normalize: func(out, errs string) (string, string) { return out, adrRE.ReplaceAllString(errs, "adr=1") },
	}.Run(t, goldens)
}
