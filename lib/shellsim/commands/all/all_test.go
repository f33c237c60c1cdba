package all

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func TestCommands(t *testing.T) {
	tab := Commands()
	for _, n := range []string{"cat", "head", "sed", "awk", "ls", "grep", "sha256sum", "gzip"} {
		if e, ok := tab.Lookup(n); !ok || e.Run == nil || e.Name != n {
			t.Errorf("%s missing: %+v", n, e)
		}
	}
	if e, _ := tab.Lookup("vi"); e.Trust != command.Unsupported {
		t.Errorf("vi: %+v", e)
	}
	// Each call builds its own table: extending one leaves the next alone.
	tab.Add(command.Entry{Name: "extra", Trust: command.Real, Run: func(*command.Invocation) int { return 0 }})
	if _, ok := Commands().Lookup("extra"); ok {
		t.Error("tables share state")
	}
}
