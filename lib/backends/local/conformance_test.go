//go:build linux

package local_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

// A local machine's processes are children of this one (bubblewrap and
// the helper), and its files live in a host directory.
func TestConformance(t *testing.T) {
	if os.Getenv("SHELLBOX_BIN_DIR") == "" {
		helperstest.Build(t)
	}
	f, err := local.New(local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	caps := machinetest.Capabilities{
		Spec:         machine.Spec{Source: machine.HostImage{}},
		NetworkAllow: true, Bash: "bash",
		Resources: func(context.Context) (map[string]int, error) {
			n, err := machinetest.Descendants()
			return map[string]int{"descendant processes": n}, err
		},
		Released: func(_ context.Context, m machine.Machine) error {
			dir := filepath.Dir(m.(*local.Machine).Root())
			if _, err := os.Lstat(dir); err == nil {
				return fmt.Errorf("the machine's directory %s remains", dir)
			}
			return nil
		},
	}
	if os.Geteuid() == 0 {
		// Without root a machine has only the host user's uid.
		caps.User, caps.UID = "nobody", 65534
	}
	machinetest.Run(t, f, caps)
}
