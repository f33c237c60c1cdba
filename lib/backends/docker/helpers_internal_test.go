package docker

import (
	"context"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

// eachRuntime runs test once under runc and once under gVisor, each with
// a new factory and a busybox machine closed at the end.
func eachRuntime(t *testing.T, test func(t *testing.T, f *Factory, m *Machine)) {
	for _, rt := range []string{"", "runsc"} {
		t.Run("runtime="+rt, func(t *testing.T) {
			ctx := context.Background()
			f, err := New(ctx, Config{Runtime: rt})
			if err != nil {
				t.Fatal(err)
			}
			m, err := f.CreateMachine(ctx, machine.Spec{Source: machine.DockerImage{Reference: "shellbox-test/busybox:latest"}, Network: machine.NetworkDeny})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close(ctx)
			test(t, f, m)
		})
	}
}

func TestCannotFork(t *testing.T) {
	for in, want := range map[string]bool{
		"shellbox-root: line 1: can't fork: Resource temporarily unavailable": true,
		"sh: fork: Resource temporarily unavailable":                          true,
		"kill: (12) - No such process":                                        false,
		"":                                                                    false,
	} {
		if got := cannotFork([]byte(in)); got != want {
			t.Errorf("cannotFork(%q) = %v", in, got)
		}
	}
}
