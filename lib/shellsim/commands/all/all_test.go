package all

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func TestRegistered(t *testing.T) {
	for _, n := range []string{"cat", "head", "sed", "awk", "ls"} {
		if _, ok := command.Lookup(n); !ok {
			t.Errorf("%s not registered", n)
		}
	}
}
