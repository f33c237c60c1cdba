package main

import (
	dockerbackend "github.com/shellbox/shellbox/lib/backends/docker"
	localbackend "github.com/shellbox/shellbox/lib/backends/local"
	qemubackend "github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
)

// factoryOptions are the backends' factory options, which open_factory
// carries as its "options": each backend declares its own; the Python
// factories build them with these generated classes. (ShellSim's are
// wire.ShellSimOptions; gVisor takes Docker's.)
var factoryOptions = []struct {
	python string
	value  any
}{
	{"LocalOptions", localbackend.Options{}},
	{"DockerOptions", dockerbackend.Options{}},
	{"QemuOptions", qemubackend.Options{}},
}

// renamed are types whose Python name is not their Go name: ShellSim's
// budgets, beside shellbox.shellsim's own Limits (which checks its values).
var renamed = map[any]string{resources.Limits{}: "SimLimits"}
