package digest

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

//go:generate sh -c "python3 ../../command/commandtest/gengolden.py testdata/cases.py digest goldens > goldens_test.go"

// TestGoldens runs the cases recorded from the real tools (goldens_test.go).
func TestGoldens(t *testing.T) {
	commandtest.Goldens{
		Commands: [][]command.Entry{Commands()},
	}.Run(t, goldens)
}
