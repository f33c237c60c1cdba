package shellsimbackend_test

import (
	"testing"

	shellsimbackend "github.com/shellbox/shellbox/lib/backends/shellsim"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

// ShellSim has no users and no network; time is virtual, a background
// job has a process group of its own, and OpenProcess collects its input
// before running.
func TestConformance(t *testing.T) {
	o, err := shellsimbackend.DecodeOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	machinetest.Run(t, shellsimbackend.NewFactory(shellsimbackend.NewEngine(o)), machinetest.Capabilities{
		Spec:      machine.Spec{Source: machine.ShellSimBuiltins{}},
		Simulated: true, JobGroups: true, BatchProcesses: true,
		BigOutputMiB: 32,
	})
}
